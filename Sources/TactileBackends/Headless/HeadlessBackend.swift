import Responder
import TactileWayland

/// Outputs with no screen behind them: for tests, scripts and a server whose clients are
/// only ever driven by injected input; screenshots (grim) show what they would show. Each
/// has a 60 Hz screen's vblanks, laid from when it was added (`RefreshGrid`): a frame is
/// shown at the first vblank after it was composed, as a screen would show it, so clients'
/// frame callbacks and the server's frame clock keep a real display's rhythm.
public final class HeadlessBackend: OutputPresenter {
    public struct Options: Sendable {
        /// One output per size (logical pixels), laid out left to right.
        public var outputs: [Size]

        public init(outputs: [Size] = [Size(width: 1280, height: 800)]) {
            self.outputs = outputs
        }
    }

    private let host: any BackendHost
    /// Each live output's vblanks.
    private var screens: [OutputID: Screen] = [:]
    private var added = 0

    /// An output's vblank grid, the vblank its last frame was shown at, and the timer that
    /// shows the frame in flight at the next.
    private struct Screen {
        var grid: RefreshGrid
        var lastShown: Instant
        let timer: EventSource
    }

    /// The refresh of every headless output, in mHz.
    public static let refreshMilliHertz: Int32 = 60_000

    public init(host: any BackendHost, options: Options) {
        self.host = host
        for size in options.outputs { addOutput(size: size) }
    }

    /// The backend's outputs, in the order added.
    public var outputs: [OutputID] { host.outputLayout.map(\.id).filter { screens[$0] != nil } }

    /// Adds an output right of the others, named `HEADLESS-n` (n counting every one added).
    @discardableResult
    public func addOutput(size: Size) -> OutputID {
        added += 1
        // Physical size from a 96 dpi guess; clients only use it for DPI hints.
        let mm = { (px: Int) in Int(Double(px) * 25.4 / 96) }
        let description = OutputDescription(
            name: "HEADLESS-\(added)", description: "Tactile headless output \(size.width)x\(size.height)",
            make: "Tactile", model: "headless", pixelSize: size, refresh: Self.refreshMilliHertz,
            physicalSize: Size(width: mm(size.width), height: mm(size.height))
        )
        let id = host.addOutput(description, presenter: self)
        let now = host.currentTime
        let grid = RefreshGrid(vblank: now, refreshMilliHertz: Self.refreshMilliHertz)!
        screens[id] = Screen(grid: grid, lastShown: now, timer: host.makeDeadline { [unowned self] in shown(id) })
        return id
    }

    /// Takes an output away, as an unplugged screen would go.
    public func removeOutput(_ id: OutputID) {
        guard screens.removeValue(forKey: id) != nil else { return }
        host.removeOutput(id)
    }

    /// The frame is "shown" at the first vblank after now and after the last frame's: its
    /// pixels stay in the server's canvas, where screenshots read them.
    public func present(_ frame: OutputFrame) {
        guard var screen = screens[frame.output] else { return }
        let now = host.currentTime
        screen.lastShown = screen.grid.next(after: screen.lastShown < now ? now : screen.lastShown)
        screens[frame.output] = screen
        screen.timer.arm(at: screen.lastShown)
    }

    /// A frame reaches its vblank: shown then, as a flip would be (vsync, for the server's
    /// frame clock), though the timer fired a little after it.
    private func shown(_ id: OutputID) {
        guard let screen = screens[id] else { return }
        host.outputPresented(id, PresentedFrame(time: screen.lastShown, flags: [.vsync]))
    }
}
