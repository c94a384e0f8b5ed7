import Foundation
import Testing
@testable import TactileTestSupport

/// The GLES renderer driving a real screen: `tactile serve --backend drm --kiosk --renderer R
/// -- weston-simple-touch` on bochs-drm, upright and turned 90, with pixman and with GLES
/// (Mesa's llvmpipe, through GBM on vgem's card: a DRM device without a display; bochs' card
/// imports no dmabufs, so the frames are read back into dumb buffers), each
/// tapped once (gles.py drives it). QEMU's screendumps of the GLES runs must equal the pixman
/// runs', pixel for pixel. Then a client's dmabuf (a vgem dumb buffer) shown through
/// linux-dmabuf, and every wrong use of its params answered as the protocol says.
@Suite struct GLESGuestTests {
    static let run = Guest.once(scenario: "gles.py", folder: "guest-gles", modules: ["bochs", "vgem"])

    @Test(arguments: ["normal", "90"])
    func glesShowsWhatPixmanShows(_ transform: String) throws {
        let run = try Self.run.get()
        #expect(run.read("tactile-gles-\(transform).log").contains("renderer: GLES ("), "composed by GLES: \(run.read("tactile-gles-\(transform).log").suffix(1500))")
        #expect(run.read("tactile-pixman-\(transform).log").contains("renderer: pixman"))
        // bochs' card exports no buffers: the DRM backend says so and reads GLES frames back.
        #expect(run.read("tactile-gles-\(transform).log").contains("Virtual-1: frames written by the CPU into dumb buffers: GBM's buffer cannot be exported"),
                "\(run.read("tactile-gles-\(transform).log").suffix(1500))")
        try run.expectGLESShowsWhatPixmanShows(case: "-\(transform)", ", turned \(transform)")
    }

    /// tactile-dmabuf-probe's 256x256 vgem buffer of 0x3080c0, imported as an EGL image and
    /// sampled where it lies: on the screen at the window's corner, the background beyond.
    @Test func aClientsDmabufReachesTheScreen() throws {
        let run = try Self.run.get()
        let log = run.read("tactile-dmabuf.log")
        #expect(log.contains("linux-dmabuf v4: "), "offered: \(log.suffix(1500))")
        #expect(log.contains("created") && log.contains("shown"), "the probe's buffer made and committed: \(log.suffix(1500))")
        let dump = try run.dump("dmabuf")
        for (x, y) in [(0, 0), (100, 100), (255, 255)] { #expect(dump.colour(at: x, y) == 0x30_80c0, "the dmabuf's colour at \(x),\(y)") }
        for (x, y) in [(256, 100), (100, 256), (640, 400)] { #expect(dump.colour(at: x, y) == 0x20_2020, "the background at \(x),\(y)") }
    }

    /// ext-image-copy-capture into dmabufs: sessions name vgem's render node and XRGB8888 in
    /// the implied layout; a dmabuf too narrow fails (buffer_constraints); the output's copy,
    /// drawn by GLES into the client's vgem buffer, equals QEMU's screendump pixel for pixel,
    /// and the window's is its 256x256 buffer, every pixel its colour.
    @Test func outputsAndWindowsAreCopiedIntoDmabufs() throws {
        let run = try Self.run.get()
        let answer = run.read("probe-capture.txt")
        for source in ["output", "window"] {
            for line in ["\(source) dmabuf_device main", "\(source) XR24 implicit yes", "\(source) smaller failed 1", "\(source) ready"] {
                #expect(answer.split(separator: "\n").contains { $0 == line }, "\(line): \(answer)")
            }
        }
        #expect(answer.contains("window size 256x256"), "\(answer)")
        let output = try run.dump("capture-output"), screen = try run.dump("dmabuf")
        #expect((output.width, output.height) == (screen.width, screen.height), "the output's size")
        #expect(output.differences(from: screen) == 0, "\(output.differences(from: screen)) pixels of the copy differ from the screen")
        let window = try run.dump("capture-window")
        #expect(window.count(of: 0x30_80c0) == 256 * 256, "\(window.count(of: 0x30_80c0)) of the window's pixels are its colour")
        #expect(!run.read("tactile-dmabuf.log").contains("crashed"))
    }

    /// linux-dmabuf v4's feedback: the format table, the device clients allocate on (vgem's
    /// render node), XRGB8888 with the implied modifier, one tranche.
    @Test func theFeedbackNamesTheDeviceAndItsFormats() throws {
        let run = try Self.run.get()
        let feedback = run.read("probe-feedback.txt")
        let node = run.read("render-node.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(feedback.contains("main_device \(node)\n"), "\(feedback) (the render node is \(node))")
        #expect(feedback.contains("XR24 implicit yes"), "\(feedback)")
        #expect(feedback.contains("tranches 1\n") && feedback.contains("status 0"), "\(feedback)")
        let formats = feedback.split(separator: "\n").first { $0.hasPrefix("formats ") }.flatMap { Int($0.dropFirst(8)) } ?? 0
        #expect(formats > 0, "\(feedback)")
    }

    /// Each wrong use gets its protocol error (zwp_linux_buffer_params_v1's codes), and a
    /// buffer the GPU cannot import `failed` (or, made immediately, invalid_wl_buffer): never a
    /// crash, and the kiosk's app keeps running (the server answered every probe after).
    @Test(arguments: [("plane-idx", "error 1"), ("plane-set", "error 2"), ("incomplete", "error 3"), ("format", "error 4"),
                      ("dimensions", "error 5"), ("bounds", "error 6"), ("used", "error 0"), ("not-dmabuf", "failed"),
                      ("flags", "failed"), ("immed-not-dmabuf", "error 7")])
    func aWrongUseIsAnsweredAsTheProtocolSays(_ use: (name: String, answer: String)) throws {
        let run = try Self.run.get()
        let answer = run.read("probe-\(use.name).txt")
        #expect(answer.split(separator: "\n").contains { $0 == use.answer }, "\(use.name): \(answer)")
        #expect(!run.read("tactile-dmabuf.log").contains("crashed"))
    }
}

extension Guest {
    /// The simple-touch kiosk as GLES and pixman showed it (QEMU's screendumps
    /// `gles<case>-before`/`-after` against `pixman<case>-…`): the same pixels, pixel for
    /// pixel, and simple-touch's red cross after the tap only.
    func expectGLESShowsWhatPixmanShows(case suffix: String = "", _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        for moment in ["before", "after"] {
            let pixman = try dump("pixman\(suffix)-\(moment)"), gles = try dump("gles\(suffix)-\(moment)")
            #expect((gles.width, gles.height) == (pixman.width, pixman.height), sourceLocation: sourceLocation)
            let differing = gles.differences(from: pixman), red = gles.count(of: 0xff_0000)
            #expect(differing == 0, "\(differing) of \(pixman.width * pixman.height) pixels differ \(moment) the tap\(context)", sourceLocation: sourceLocation)
            #expect((red > 0) == (moment == "after"), "simple-touch's red cross, after the tap only", sourceLocation: sourceLocation)
        }
    }
}
