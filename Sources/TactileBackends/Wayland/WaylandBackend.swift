import CWaylandClient
// The protocol enums (wl_seat capabilities, wl_shm formats...) are declared by both the
// client and the server header, and belong to whichever module Clang parsed first: in a
// whole-module (release) build that may be CWaylandServer, so every file here imports both.
import CWaylandServer
import Glibc
import Logging
import Responder
import TactileWayland
import WaylandProtocols

/// Tactile nested in another Wayland compositor (weston, a desktop, another Tactile): a
/// client of that parent, with one xdg_toplevel per output showing the output's frames, and
/// the parent's seat as Tactile's input.
///
/// ```
/// parent's wl_seat events ──▶ WaylandBackend+Input ──▶ host.handle(InputEvent)
/// host ──present(OutputFrame)──▶ NestedWindow ──wl_shm buffer, damage, frame cb──▶ parent
/// parent's frame callback ──▶ host.outputPresented (clients' frame callbacks complete)
/// ```
///
/// Runs on the server's loop: the parent's display fd is watched there, and every request to
/// the parent is flushed at the end of the callback that made it.
public final class WaylandBackend: OutputPresenter {
    /// The parent composes each window's frames again, before its own vblank.
    public var composedAgainByAParent: Bool { true }

    public struct Options: Sendable {
        /// The parent's socket (name in XDG_RUNTIME_DIR, or a path); nil: `WAYLAND_DISPLAY`.
        public var parentDisplay: String?
        /// One window (and output) each.
        public var outputs: Int
        /// Each window's size until the parent configures one, in pixels.
        public var outputSize: Size
        /// Ask the parent to show the windows fullscreen.
        public var fullscreen: Bool
        /// Tactile's own socket, named in the windows' titles so several nested servers can be
        /// told apart.
        public var socketName: String

        public init(parentDisplay: String? = nil, outputs: Int = 1, outputSize: Size = Size(width: 1280, height: 800),
                    fullscreen: Bool = false, socketName: String) {
            self.parentDisplay = parentDisplay
            self.outputs = outputs
            self.outputSize = outputSize
            self.fullscreen = fullscreen
            self.socketName = socketName
        }
    }

    /// Why the backend cannot go on: the server should stop.
    public enum End: Sendable, Equatable, CustomStringConvertible {
        /// The parent closed the last window (its close button, say): stop normally.
        case closed
        /// The connection to the parent broke: it went away or posted a protocol error.
        case parentLost(String)

        public var description: String {
            switch self {
            case .closed: "the parent compositor closed the window"
            case .parentLost(let why): "lost the parent compositor: \(why)"
            }
        }
    }

    let host: any BackendHost
    let logger: Logger
    let display: OpaquePointer
    private let onEnd: (End) -> Void
    private var ended = false
    /// The parent's globals we use, bound in `init`.
    var globals = ParentGlobals()
    /// Each output's window, by the output it shows.
    var windows: [OutputID: NestedWindow] = [:]
    /// The parent's seat and the devices we hold of it.
    var input = ParentSeat()
    /// The parent's tablets and pens, where it offers tablet-v2 (`WaylandBackend+Tablets`).
    var tablets = ParentTablets()
    /// The parent's linux-dmabuf, where the windows' buffers are dmabufs (`ParentDmabuf`).
    var parentDmabuf: ParentDmabuf?
    private var watch: EventSource?
    /// Retries a flush the parent's full socket refused, and removes the watch after an end.
    private var retry: EventSource?
    private var dispatchLater: EventSource?

    /// Connects to the parent and opens the windows, waiting for the parent to configure
    /// them; their outputs are announced at the size it chose (else `options.outputSize`).
    /// `onEnd` is called once, on the server's loop, when the backend cannot go on.
    public init(host: any BackendHost, options: Options, logger: Logger, onEnd: @escaping (End) -> Void) throws {
        self.host = host
        self.logger = logger
        self.onEnd = onEnd
        guard let display = wl_display_connect(options.parentDisplay) else {
            throw WaylandBackendError.cannotConnect(options.parentDisplay ?? Self.environmentDisplay ?? "wayland-0", String(cString: strerror(errno)))
        }
        self.display = display
        // Should these throw, deinit disconnects (every stored property is set by now).
        try bindGlobals()
        try openWindows(options)
        watch = host.watch(fileDescriptor: wl_display_get_fd(display)) { [unowned self] in dispatch() }
        retry = host.makeTimer { [unowned self] in retried() }
        // Events read during the set-up's round trips wait in the queue, not on the fd.
        dispatch()
    }

    deinit { tearDown() }

    /// `WAYLAND_DISPLAY`, when set and not empty.
    public static var environmentDisplay: String? {
        guard let value = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// Whether a compositor listens on `display`: a connection is made and closed at once
    /// (without a round trip, which a hung compositor would never answer). A socket file
    /// left by a compositor that is gone refuses the connection.
    public static func compositorListens(on display: String) -> Bool {
        guard let connection = wl_display_connect(display) else { return false }
        wl_display_disconnect(connection)
        return true
    }

    /// The windows' outputs, in the order added.
    public var outputs: [OutputID] { host.outputLayout.map(\.id).filter { windows[$0] != nil } }

    public func present(_ frame: OutputFrame) {
        windows[frame.output]?.present(frame)
        flush()
    }

    // MARK: The parent's connection

    /// Reads what the parent sent and handles it, without blocking: the loop only calls this
    /// when the fd is readable (or hung up, which the read then reports).
    func dispatch() {
        guard !ended else { return }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return lost() }
        }
        guard wl_display_read_events(display) >= 0, wl_display_dispatch_pending(display) >= 0 else { return lost() }
        flush()
    }

    /// Handles events read into the queue outside `dispatch` (a dmabuf's round trip on its
    /// own queue reads the parent's other events too, and the fd then stays quiet), at the
    /// loop's next turn.
    func dispatchSoon() {
        if dispatchLater == nil { dispatchLater = host.makeTimer { [unowned self] in dispatch() } }
        dispatchLater?.arm(milliseconds: 1)
    }

    /// Sends our requests; a full socket is tried again shortly (the seam watches only
    /// readability).
    func flush() {
        guard !ended else { return }
        if wl_display_flush(display) < 0 {
            guard errno == EAGAIN else { return lost() }
            retry?.arm(milliseconds: 2)
        }
    }

    private func retried() {
        if ended { watch = nil } else { flush() }
    }

    /// The connection failed: say why once, and stop reading a fd that will only hang up again.
    private func lost() {
        let code = wl_display_get_error(display)
        var why = code == 0 || code == EPIPE || code == ECONNRESET ? "it closed the connection" : String(cString: strerror(code))
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        if code == EPROTO {
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            why = "protocol error \(protocolCode) on \(interface.map { String(cString: $0.pointee.name) } ?? "?")#\(id)"
        }
        end(.parentLost(why))
    }

    func end(_ reason: End) {
        guard !ended else { return }
        ended = true
        // Not from inside the watch's own callback: removing it there would free the closure running.
        retry?.arm(milliseconds: 1)
        onEnd(reason)
    }

    /// The parent closed a window: its output goes, and with the last one the backend ends.
    func closed(_ output: OutputID) {
        guard windows.count > 1 else { return end(.closed) }
        logger.info("the parent closed the window of \(output); removing the output")
        windows.removeValue(forKey: output)
        host.removeOutput(output)
    }

    private func tearDown() {
        watch = nil
        windows.removeAll()
        parentDmabuf = nil
        tablets.release()
        input.release()
        globals.release()
        wl_display_disconnect(display)
    }
}

/// Why the nested backend could not start.
public enum WaylandBackendError: Error, CustomStringConvertible {
    case cannotConnect(String, String)
    case missingGlobal(String)
    case parentFailed(String)

    public var description: String {
        switch self {
        case .cannotConnect(let display, let why): "cannot connect to the parent compositor at \(display): \(why)"
        case .missingGlobal(let name): "the parent compositor offers no \(name), which a nested Tactile needs"
        case .parentFailed(let why): "the parent compositor failed while the windows were opened: \(why)"
        }
    }
}
