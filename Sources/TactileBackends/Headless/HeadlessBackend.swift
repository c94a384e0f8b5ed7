import Responder
import TactileWayland

/// Outputs with no screen behind them: for tests, scripts and a server whose clients are
/// only ever driven by injected input; screenshots (grim) show what they would show. Each is paced as a screen would be, one frame per
/// refresh period, so clients' frame callbacks keep a real display's rhythm.
public final class HeadlessBackend: OutputPresenter {
    public struct Options: Sendable {
        /// One output per size (logical pixels), laid out left to right.
        public var outputs: [Size]

        public init(outputs: [Size] = [Size(width: 1280, height: 800)]) {
            self.outputs = outputs
        }
    }

    private let host: any BackendHost
    /// Each live output's frame timer.
    private var frames: [OutputID: EventSource] = [:]
    private var added = 0

    public init(host: any BackendHost, options: Options) {
        self.host = host
        for size in options.outputs { addOutput(size: size) }
    }

    /// The backend's outputs, in the order added.
    public var outputs: [OutputID] { host.outputLayout.map(\.id).filter { frames[$0] != nil } }

    /// Adds an output right of the others, named `HEADLESS-n` (n counting every one added).
    @discardableResult
    public func addOutput(size: Size) -> OutputID {
        added += 1
        // Physical size from a 96 dpi guess; clients only use it for DPI hints.
        let mm = { (px: Int) in Int(Double(px) * 25.4 / 96) }
        let description = OutputDescription(
            name: "HEADLESS-\(added)", description: "Tactile headless output \(size.width)x\(size.height)",
            make: "Tactile", model: "headless", pixelSize: size, physicalSize: Size(width: mm(size.width), height: mm(size.height))
        )
        let id = host.addOutput(description, presenter: self)
        frames[id] = host.makeTimer { [unowned self] in host.outputPresented(id, at: host.currentTime) }
        return id
    }

    /// Takes an output away, as an unplugged screen would go.
    public func removeOutput(_ id: OutputID) {
        guard frames.removeValue(forKey: id) != nil else { return }
        host.removeOutput(id)
    }

    /// The frame is "shown" one refresh period later (16 ms at the 60 Hz these outputs have);
    /// its pixels stay in the server's canvas, where screenshots read them.
    public func present(_ frame: OutputFrame) {
        frames[frame.output]?.arm(milliseconds: 16)
    }
}
