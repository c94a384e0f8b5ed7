import CWaylandClient
import CWaylandServer
import Responder
import TactileWayland

extension WaylandBackend {
    /// Opens one window per output and waits (a few round trips at most) for the parent to
    /// configure each; then announces their outputs, sized as the parent asked or as
    /// `options.outputSize` says, named WL-1, WL-2, ... and laid out left to right.
    func openWindows(_ options: Options) throws {
        let size = NestedWindow.clamped(Int32(clamping: options.outputSize.width), Int32(clamping: options.outputSize.height)) ?? Size(width: 1280, height: 800)
        let count = max(1, options.outputs)
        let opened = (1...count).map { n in
            let title = count == 1 ? "Tactile — \(options.socketName)" : "Tactile — \(options.socketName) (WL-\(n))"
            return NestedWindow(backend: self, title: title, size: size, fullscreen: options.fullscreen, name: "WL-\(n)")
        }
        var tries = 0
        while opened.contains(where: { !$0.configured }) {
            tries += 1
            guard tries <= 10 else { throw WaylandBackendError.parentFailed("it did not configure the windows in 10 round trips") }
            guard wl_display_roundtrip(display) >= 0 else { throw WaylandBackendError.parentFailed("the connection broke") }
        }
        for window in opened {
            let id = host.addOutput(window.description, presenter: self)
            window.output = id
            windows[id] = window
            window.mapBlack()
        }
        logger.info("nested in the parent compositor: \(count) window(s), \(opened.map { "\($0.description.pixelSize.width)x\($0.description.pixelSize.height)" }.joined(separator: ", "))\(options.fullscreen ? ", fullscreen asked" : "")")
    }

    /// The window whose wl_surface this is, with its output's place in the layout; nil for a
    /// surface that is not ours (or already gone: libwayland hands over NULL).
    func window(of surface: OpaquePointer?) -> (NestedWindow, PlacedOutput)? {
        guard let surface, let window = windows.values.first(where: { $0.surface == surface }), let output = window.output else { return nil }
        guard let placed = host.outputLayout.first(where: { $0.id == output }) else { return nil }
        return (window, placed)
    }
}
