import Foundation
import Testing
@testable import TactileTestSupport

/// libtactile embedded in a compositor that is not ours, on a real screen and a real
/// touchscreen: examples/wlroots-kiosk (built here against the staged libtactile, as
/// WlrootsKioskTests builds it for the headless backend) on wlroots 0.15's DRM and libinput
/// backends in the QEMU guest, running weston-simple-touch (wlroots_kiosk.py drives it).
/// The card is virtio-gpu: wlroots refuses bochs-drm, which has no PRIME import. The app's own
/// WAYLAND_DEBUG transcript says where each touch landed; QEMU's screendump what it drew.
@Suite struct WlrootsKioskGuestTests {
    /// The touchscreen's 0...4095 onto the 1280x800 screen, as libinput scales it (a range of
    /// 4096 units), and the kiosk puts it on its output.
    static func screen(_ x: Double, _ y: Double) -> Point {
        Point(x: x * 1280 / 4096, y: y * 800 / 4096)
    }

    // The scenario's raw touches (wlroots_kiosk.py), chosen to land on whole pixels so that
    // the transcript's coordinates compare exactly.
    static let tap = screen(1024, 1024)          // (320, 200)
    static let edgeStart = screen(16, 2048)      // (5, 400)
    static let edgeSteps = stride(from: 64.0, through: 640, by: 64).map { screen($0, 2048) }
    static let nextTap = screen(1536, 1536)      // (480, 300)

    @Test func theKioskLightsTheVirtioGPUScreenThroughWlrootsDRMBackend() throws {
        let run = try WlrootsKioskRun.shared.get()
        #expect(run.kioskLog.contains("Initializing DRM backend for /dev/dri/card0 (virtio_gpu)"), "\(run.kioskLog.suffix(3000))")
        #expect(run.kioskLog.contains("connector Virtual-1: Modesetting with '1280x800@"), "\(run.kioskLog.suffix(3000))")
        #expect(run.kioskLog.contains("Added Tactile Test Touchscreen"), "libinput's touchscreen: \(run.kioskLog.suffix(3000))")
        let before = run.before
        #expect((before.width, before.height) == (1280, 800))
        // weston-simple-touch (600x500 at the origin: it does not redraw at the kiosk size)
        // fills itself with quarter-alpha grey, 0x40 over wlr_scene's black.
        #expect(before.colour(at: 10, 10) == 0x40_4040, "\(String(before.colour(at: 10, 10), radix: 16))")
        #expect(before.colour(at: 599, 499) == 0x40_4040)
        #expect(before.colour(at: 600, 499) == 0x00_0000, "the scene's black beside it")
        #expect(run.appLog.contains("xdg_toplevel@10.configure(1280, 800, "), "told to fill the screen: \(run.appLog.suffix(2000))")
    }

    @Test func aTapLandsExactlyWhereTheTouchscreenWasTouched() throws {
        let run = try WlrootsKioskRun.shared.get()
        let events = run.touches.filter { if case .motion = $0 { false } else { true } }
        try #require(events.count >= 2, "simple-touch heard \(run.touches)")
        #expect(Array(events.prefix(2)) == [.down(id: 0, Self.tap), .up(id: 0)])
        let x = Int(Self.tap.x), y = Int(Self.tap.y)
        for (dx, dy) in [(0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)] {
            #expect(run.after.colour(at: x + dx, y + dy) == 0xff_0000, "simple-touch's red cross at (\(x + dx), \(y + dy))")
        }
        #expect(run.before.colour(at: x, y) == 0x40_4040)
    }

    /// The app saw the finger come down by the edge and move; once the swipe won, the app's
    /// touch was cancelled and nothing more of that finger reached it, lifted or not.
    @Test func aWinningLeftEdgeSwipeCancelsTheAppsTouchAndRunsItsCommand() throws {
        let run = try WlrootsKioskRun.shared.get()
        let touches = run.touches
        guard let down = touches.firstIndex(of: .down(id: 0, Self.edgeStart)),
              let cancel = touches.firstIndex(of: .cancel) else {
            Issue.record("no edge down at \(Self.edgeStart) and cancel: \(touches)")
            return
        }
        #expect(down < cancel)
        let moves = touches[(down + 1)..<cancel].map { event -> Point? in
            if case .motion(id: 0, let point) = event { point } else { nil }
        }
        #expect(moves.allSatisfy { $0 != nil } && Array(Self.edgeSteps.prefix(moves.count)) == moves.compactMap { $0 },
                "only the finger's own motions before the cancel: \(touches[(down + 1)..<cancel])")
        #expect(touches.dropFirst(cancel + 1).first == .down(id: 0, Self.nextTap), "the cancelled finger's up and motions stay away: \(touches.dropFirst(cancel + 1))")
        #expect(run.kioskLog.contains("tactile-wlr-kiosk: gesture edge began"), "\(run.kioskLog.suffix(3000))")
        #expect(run.kioskLog.contains("tactile-wlr-kiosk: gesture edge ended"))
        #expect(run.gestureRan.split(separator: "\n").first == "edge began", "the run: command's lines: \(run.gestureRan)")
    }

    @Test func theNextTapArrivesAsAnyOther() throws {
        let events = try WlrootsKioskRun.shared.get().touches.filter { if case .motion = $0 { false } else { true } }
        #expect(events == [.down(id: 0, Self.tap), .up(id: 0), .down(id: 0, Self.edgeStart), .cancel, .down(id: 0, Self.nextTap), .up(id: 0)])
    }

    /// As the README promises a service manager: SIGTERM is a clean stop, status 0.
    @Test func sigtermEndsTheKioskWithStatusZero() throws {
        let run = try WlrootsKioskRun.shared.get()
        #expect(run.status == "0", "\(run.kioskLog.suffix(500))")
    }
}

/// One boot of the guest for the suite, after building what it runs.
struct WlrootsKioskRun {
    /// The kiosk's log (wlroots' debug log and the kiosk's own lines).
    let kioskLog: String
    /// weston-simple-touch's `WAYLAND_DEBUG=client` transcript.
    let appLog: String
    /// A line per run of the edge gesture's `run:` command: its name and state.
    let gestureRan: String
    let status: String
    let before: Screenshot, after: Screenshot

    /// Every wl_touch event simple-touch heard, in order, motions included: what came between
    /// the edge swipe's down and its cancel, and after, is the point.
    var touches: [TouchEvent] { TouchEvent.all(inWaylandDebug: appLog) }

    static let shared: Result<WlrootsKioskRun, GuestRunFailure> = Result { try WlrootsKioskRun() }.mapError { $0 as? GuestRunFailure ?? GuestRunFailure(reason: "\($0)") }

    private init() throws {
        try Self.build()
        let guest = try Guest.run(scenario: "wlroots_kiosk.py", folder: "guest-wlroots-kiosk", modules: ["virtio_gpu"],
                                  qemuArguments: "-device virtio-gpu-pci,id=virtio")
        kioskLog = guest.read("kiosk.log")
        appLog = guest.read("simple-touch.log")
        gestureRan = guest.read("gesture-ran")
        status = guest.read("kiosk.status").trimmingCharacters(in: .whitespacesAndNewlines)
        (before, after) = (try guest.dump("before"), try guest.dump("after"))
    }

    /// libtactile staged and the kiosk built beside the build products, where the scenario
    /// finds them: the guest sees the host's files at their paths, but not its /tmp, where
    /// LibTactileTests builds its own.
    private static func build() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let build = products + "/guest-wlroots-kiosk-build"
        let (status, output) = try runProcess("/bin/bash", ["-c", """
            set -e
            cd '\(package.path)'
            scripts/libtactile-stage '\(build)/stage' '\(products)' >/dev/null
            make -s -C examples/wlroots-kiosk O='\(build)/kiosk' PKG_CONFIG_PATH='\(build)/stage/lib/pkgconfig'
            """])
        guard status == 0 else {
            throw GuestRunFailure(reason: "staging libtactile or building examples/wlroots-kiosk failed (status \(status)):\n\(output.suffix(3000))")
        }
    }
}
