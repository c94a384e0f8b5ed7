import CWaylandClient
import Glibc
import WaylandProtocols

/// A libwayland client drawing frame after frame on frame callbacks, as toolkits do: one
/// 1280x800 xdg_toplevel (the headless output's size) whose buffer is damaged where a 64x64
/// square moves, so each frame is a frame's fixed cost and little pixel work. `frame()`
/// returns once the server has shown the frame and released its callback.
final class FrameClient {
    let display: OpaquePointer
    private let surface: OpaquePointer
    private var configureSerial: UInt32?
    private(set) var framesShown = 0
    private var step = 0
    static let size = (width: Int32(1280), height: Int32(800))

    init(socket: String) throws {
        let connection = try Connection(socket: socket)
        display = connection.display
        let compositor = try connection.bind("wl_compositor", tactile_client_wl_compositor_interface(), version: 5)
        let shm = try connection.bind("wl_shm", tactile_client_wl_shm_interface(), version: 1)
        let wmBase = try connection.bind("xdg_wm_base", tactile_xdg_wm_base_interface(), version: 1)
        xdg_wm_base_add_listener(wmBase, Self.wmBaseListener, nil)
        surface = wl_compositor_create_surface(compositor)!
        let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)!
        xdg_surface_add_listener(xdgSurface, Self.xdgSurfaceListener, Unmanaged.passUnretained(self).toOpaque())
        _ = xdg_surface_get_toplevel(xdgSurface)
        wl_surface_commit(surface)
        while configureSerial == nil { guard wl_display_dispatch(display) >= 0 else { throw CommitClientError.protocolError } }
        xdg_surface_ack_configure(xdgSurface, configureSerial!)

        let (width, height) = Self.size
        wl_surface_attach(surface, try shmBuffer(shm, width: width, height: height, format: WL_SHM_FORMAT_XRGB8888), 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        frame()
    }

    deinit { wl_display_disconnect(display) }

    /// Damages the square where it moves, asks for the frame's callback, commits, and waits
    /// for the callback: the frame was composed, shown and its callback released.
    func frame() {
        step = (step + 1) % 16
        wl_surface_damage_buffer(surface, 64 * Int32(step), 64 * Int32(step % 8), 64, 64)
        wl_callback_add_listener(wl_surface_frame(surface), Self.frameListener, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
        let target = framesShown + 1
        while framesShown < target {
            precondition(wl_display_dispatch(display) >= 0, "the server posted a protocol error (\(wl_display_get_error(display)))")
        }
    }

    nonisolated(unsafe) private static let wmBaseListener: UnsafeMutablePointer<xdg_wm_base_listener> = {
        let listener = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
        listener.initialize(to: xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))
        return listener
    }()

    nonisolated(unsafe) private static let xdgSurfaceListener: UnsafeMutablePointer<xdg_surface_listener> = {
        let listener = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
        listener.initialize(to: xdg_surface_listener(configure: { data, _, serial in
            Unmanaged<FrameClient>.fromOpaque(data!).takeUnretainedValue().configureSerial = serial
        }))
        return listener
    }()

    nonisolated(unsafe) private static let frameListener: UnsafeMutablePointer<wl_callback_listener> = {
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_callback_listener(done: { data, callback, _ in
            wl_callback_destroy(callback)
            Unmanaged<FrameClient>.fromOpaque(data!).takeUnretainedValue().framesShown += 1
        }))
        return listener
    }()
}
