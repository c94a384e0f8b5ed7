import CWaylandServer
import CXCB
import Logging
import Responder

/// X11 apps' window manager: Xwayland (started by the server's host, `tactile serve`) shows
/// each X window with a wl_surface of its own, and this part, an X client over XCB on the
/// socket Xwayland was given with `-wm`, decides where those windows go, pairs each with its
/// surface (WL_SURFACE_ID) and gives the surface the `XwaylandSurface` role. From then on an
/// X window is a window like any other: the core routes touch, pointer and keyboard to its
/// surface, and Xwayland turns them into X events (XI2 touch included).
///
/// One connection per Xwayland run (`XConnection`): when Xwayland goes, so do its windows,
/// and the next run starts afresh.
final class XWindowManager: ServerPart {
    unowned(unsafe) let context: any PartContext
    let windows: Windows
    private let selections: Selections
    private let loop: OpaquePointer
    private(set) var connection: XConnection?

    init(context: any PartContext, windows: Windows, selections: Selections, loop: OpaquePointer,
         surfaceCreated: Signal<Surface>, selectionChanged: Signal<SelectionKind>) {
        self.context = context
        self.windows = windows
        self.selections = selections
        self.loop = loop
        surfaceCreated.follow { [unowned self] in self.surfaceCreated($0) }
        selectionChanged.follow { [unowned self] in self.selectionChanged($0) }
    }

    /// Manages the windows of the Xwayland connected to this server as `client`, over `socket`
    /// (the other end of its `-wm` fd; taken over, closed when done). `ended` hears why the
    /// connection ended, unless the server stopped it.
    func manage(socket: Int32, xwayland client: OpaquePointer, ended: @escaping (String) -> Void) {
        dropConnection()
        do {
            connection = try XConnection(socket: socket, xwayland: client, manager: self, selections: selections, loop: loop) { [unowned self] reason in
                dropConnection()
                ended(reason)
            }
        } catch {
            context.logger.error("X window manager: \(error)")
            ended("\(error)")
        }
    }

    /// A surface Xwayland just made may be the one an X window announced.
    func surfaceCreated(_ surface: Surface) {
        connection?.surfaceCreated(surface)
    }

    /// A selection changed on the Wayland side; X hears of a Wayland client's.
    func selectionChanged(_ kind: SelectionKind) {
        connection?.selectionBridge?.waylandSelectionChanged(kind)
    }

    func focusChanged(_ focus: SeatFocus) {
        let window = focus.keyboard.flatMap { context.scene.toplevel(containing: $0) }.flatMap { context.surface(at: $0)?.role as? XwaylandSurface }?.window
        connection?.focus(window)
    }

    func stop() {
        dropConnection()
    }

    /// Forgets the connection, which goes once `connection` no longer names it: its X
    /// selections leave Wayland's, and the parts that hear of that may ask for `connection`.
    private func dropConnection() {
        let old = connection
        connection = nil
        withExtendedLifetime(old) {}
    }

    /// Once the scene's changes are made, X stacks its windows as the scene does.
    func restack() {
        context.afterScene { [weak self] in self?.connection?.restackLikeScene() }
    }

    func writeState(of window: XWindow) { connection?.writeState(of: window) }

    func change(_ window: XWindow, maximized: Bool?, fullscreen: Bool?) {
        connection?.change(window, maximized: maximized, fullscreen: fullscreen)
    }

    func close(_ window: XWindow) { connection?.close(window) }

    /// A window whose frame the policy fixes follows the area it may use.
    func placeAgain(_ window: XWindow) { connection?.placeAgain(window) }
}

/// Why the window manager could not take charge of an Xwayland.
struct XConnectionError: Error, CustomStringConvertible {
    let description: String
}
