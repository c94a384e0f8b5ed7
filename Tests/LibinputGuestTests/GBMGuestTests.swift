import Foundation
import Testing
@testable import TactileTestSupport

/// GLES on the card that drives the screen (gbm.py, QEMU's virtio-gpu, whose dumb buffers other
/// devices import, with vgem beside it): the DRM backend's framebuffers are GBM buffer objects
/// the renderer draws into (Mesa's llvmpipe through GBM on the same card), and a full-screen
/// client dmabuf is flipped to as it is, without composition. A second guest
/// (gbm_clients.py) runs a nested Tactile presenting through the kiosk's linux-dmabuf, and the
/// protocol fuzzer against a server offering it.
@Suite struct GBMGuestTests {
    static let run = Guest.once(scenario: "gbm.py", folder: "guest-gbm", modules: ["virtio_gpu", "vgem"],
                                qemuArguments: "-device virtio-gpu-pci,id=virtio")
    /// A guest of its own: both scenarios in one guest would pass scripts/guest/run's limit.
    static let clients = Guest.once(scenario: "gbm_clients.py", folder: "guest-gbm-clients", modules: ["virtio_gpu", "vgem"],
                                    qemuArguments: "-device virtio-gpu-pci,id=virtio")

    /// The same kiosk composed by pixman into dumb buffers and by GLES into GBM buffers: the
    /// screen (QEMU's screendump) is the same, pixel for pixel, before and after a tap.
    @Test func gbmFramesShowWhatPixmanShows() throws {
        let run = try Self.run.get()
        let log = run.read("tactile-gles.log")
        #expect(log.contains("renderer: GLES (") && log.contains("EGL GBM /dev/dri/card0"), "GLES on the screen's card: \(log.suffix(1500))")
        #expect(log.contains("Virtual-1: frames drawn by the GPU into GBM buffer objects and scanned out"), "\(log.suffix(1500))")
        #expect(run.read("tactile-pixman.log").contains("frames written by the CPU into dumb buffers"))
        try run.expectGLESShowsWhatPixmanShows()
    }

    /// tactile-dmabuf-probe's full-screen buffer (0x30c080, a dumb buffer of the card) on
    /// screen as it is; grim (screencopy reads the composed frame, which is kept) sees the
    /// same. A second app over it brings composition back; gone, scanout again. The probe
    /// asks to be shown torn: virtio-gpu flips only at vertical blanks, which the log says.
    /// (Where a driver flips async, the frames are flipped to at once; no device here has one.)
    @Test func aFullScreenClientBufferIsScannedOut() throws {
        let run = try Self.run.get()
        let log = run.read("tactile-scanout.log")
        #expect(log.contains("created\n") && log.contains("shown 1280x800"), "\(log.suffix(1500))")
        #expect(log.components(separatedBy: "Virtual-1: showing a client's buffer as it is (direct scanout").count - 1 == 2, "\(log.suffix(2000))")
        #expect(log.contains("Virtual-1: composing again"), "\(log.suffix(2000))")
        #expect(log.contains("asks to be shown torn (wp_tearing_control_v1 async)"), "\(log.suffix(2000))")
        #expect(log.components(separatedBy: "Virtual-1: a full-screen client asks to be shown torn; the driver flips only at vertical blanks (no DRM_CAP_ASYNC_PAGE_FLIP)").count - 1 == 1,
                "said once: \(log.suffix(2000))")
        #expect(!log.contains("crashed"))
        for name in ["scanout", "grim-scanout", "scanout-again"] {
            let dump = try run.dump(name)
            let other = dump.width * dump.height - dump.count(of: 0x30_c080)
            #expect((dump.width, dump.height) == (1280, 800) && other == 0, "\(name): \(other) pixels are not the client's colour")
        }
        let covered = try run.dump("covered")
        let colour = covered.count(of: 0x30_c080)
        #expect(colour > 0 && colour < covered.width * covered.height, "weston-simple-shm over the client: \(colour) pixels of its colour")
    }

    /// The feedback names the screen's card as the main device; a buffer of another device
    /// (vgem), which llvmpipe on that card cannot map, is `failed`, and Tactile goes on.
    @Test func aBufferOfAnotherDeviceIsRefused() throws {
        let run = try Self.run.get()
        let device = run.read("main-device.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(run.read("probe-feedback.txt").contains("main_device \(device)\n"), "\(run.read("probe-feedback.txt")) (card0 is \(device))")
        #expect(run.read("probe-other-device.txt").split(separator: "\n").contains("failed"), "\(run.read("probe-other-device.txt"))")
    }

    /// A nested Tactile as the kiosk's app: with GLES its frames reach the kiosk as dmabufs of
    /// the kiosk's main device (shown by direct scanout), with pixman as wl_shm memory; the
    /// screen is the same, pixel for pixel.
    @Test func aNestedServerPresentsThroughTheParentsDmabufs() throws {
        let run = try Self.clients.get()
        let gles = run.read("tactile-nested-gles.log"), pixman = run.read("tactile-nested-pixman.log")
        #expect(gles.contains("frames go to the parent as dmabufs the GPU draws, on /dev/dri/card0"), "\(gles.suffix(2000))")
        #expect(gles.contains("Virtual-1: showing a client's buffer as it is (direct scanout"), "the kiosk scans the nested frames out: \(gles.suffix(2000))")
        #expect(!pixman.contains("frames go to the parent as dmabufs"))
        #expect(!run.read("command.log").contains("did not settle"))
        let shm = try run.dump("nested-pixman"), dmabuf = try run.dump("nested-gles")
        #expect(dmabuf.differences(from: shm) == 0 && shm.count(of: 0) == 0, "the nested desktop, drawn and the same both ways")
        #expect(shm.count(of: 0x20_2020) > 0, "the nested server's background")
    }

    /// linux-dmabuf under the protocol fuzzer (offered here, unlike on CI's host): its params
    /// get hostile values, and the server neither crashes nor hangs.
    @Test func linuxDmabufSurvivesTheFuzzer() throws {
        let run = try Self.clients.get()
        #expect(run.read("tactile-fuzz.log").contains("linux-dmabuf v4: "), "offered: \(run.read("tactile-fuzz.log").suffix(1500))")
        let summary = run.read("fuzz.txt")
        #expect(summary.contains("result: 0 crashes, 0 hangs") && summary.contains("status 0"), "\(summary.suffix(3000))")
        // `c3 #12 zwp_linux_buffer_params_v1@7.add(fd(size 4096), 9, …)`: a request on params.
        let paramsRequests = summary.split(separator: "\n").count { $0.split(separator: " ").dropFirst(2).first?.hasPrefix("zwp_linux_buffer_params_v1@") == true }
        print("linux-dmabuf's params got \(paramsRequests) requests in the fuzz")
        #expect(paramsRequests > 0, "requests on linux-dmabuf's params: \(summary.suffix(3000))")
        #expect(run.read("fuzz-server.txt") == "alive\n")
    }
}
