import Foundation
import Logging
import Responder
import TactileBackends
import TactileServer
import TactileWayland

/// One WLCS test's server. WLCS starts it with start_on_this_thread, then proxies every hook
/// onto its own event loop, which this server's loop drives: so every hook below runs on the
/// server's thread, and nothing needs a lock.
final class WLCSServer {
    /// The server on headless outputs, with the configuration file's gesture actions; WLCS
    /// connects its clients itself, so it listens on no socket.
    let tactile: Assembly
    /// The server as its host sees it.
    let server: ServerPort
    var nextTouchID: Int32 = 0

    init(_ tactile: Assembly) {
        self.tactile = tactile
        server = tactile.server.port
    }
}

/// A WLCS pointer: absolute or relative motion and buttons, into the seat.
final class WLCSPointer {
    unowned let owner: WLCSServer
    init(_ owner: WLCSServer) { self.owner = owner }
}

/// A WLCS touch: one finger, with its own touch id.
final class WLCSTouch {
    unowned let owner: WLCSServer
    let id: Int32
    init(_ owner: WLCSServer, id: Int32) {
        self.owner = owner
        self.id = id
    }
}

private func object<T: AnyObject>(_ pointer: UnsafeMutableRawPointer?) -> T {
    Unmanaged<T>.fromOpaque(pointer!).takeUnretainedValue()
}

/// create_server: the arguments are WLCS's command line; those `tactile serve` knows configure
/// the server, the rest (gtest's and WLCS's own) are left alone.
@_cdecl("tactile_wlcs_create")
func wlcsCreate(_ argc: Int32, _ argv: UnsafePointer<UnsafePointer<CChar>?>?) -> UnsafeMutableRawPointer? {
    let arguments = (1..<Int(argc)).compactMap { argv?[$0].map { String(cString: $0) } }
    do {
        let options = try ServerOptions.parse(ServerOptions.recognized(in: arguments))
        let logger = options.makeLogger()
        var configuration = try options.configuration()
        // WLCS's tests take focus by mapping a window from a new client, as desktops used to
        // let any window do.
        configuration.newWindowFocus = .always
        let tactile = try Assembly(configuration: configuration, backend: .headless(options.headless), socket: .none, logger: logger)
        return Unmanaged.passRetained(WLCSServer(tactile)).toOpaque()
    } catch {
        FileHandle.standardError.write(Data("tactile: cannot create a server for WLCS: \(error)\n".utf8))
        return nil
    }
}

@_cdecl("tactile_wlcs_destroy")
func wlcsDestroy(_ context: UnsafeMutableRawPointer?) {
    Unmanaged<WLCSServer>.fromOpaque(context!).release()
}

@_cdecl("tactile_wlcs_run")
func wlcsRun(_ context: UnsafeMutableRawPointer?, _ dispatcherFD: Int32,
             _ dispatch: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, _ dispatcher: UnsafeMutableRawPointer?) {
    let wlcs: WLCSServer = object(context)
    withExtendedLifetime(wlcs.server.watch(fileDescriptor: dispatcherFD) { dispatch?(dispatcher) }) {
        wlcs.tactile.run()
    }
}

@_cdecl("tactile_wlcs_stop")
func wlcsStop(_ context: UnsafeMutableRawPointer?) {
    let wlcs: WLCSServer = object(context)
    wlcs.tactile.server.handle.terminate()
}

@_cdecl("tactile_wlcs_client_socket")
func wlcsClientSocket(_ context: UnsafeMutableRawPointer?) -> Int32 {
    let wlcs: WLCSServer = object(context)
    return wlcs.server.connectClientSocket() ?? -1
}

@_cdecl("tactile_wlcs_position")
func wlcsPosition(_ context: UnsafeMutableRawPointer?, _ clientFD: Int32, _ surfaceID: UInt32, _ x: Int32, _ y: Int32) {
    let wlcs: WLCSServer = object(context)
    wlcs.server.moveToplevel(clientSocket: clientFD, surfaceID: surfaceID, to: Position(x: Int(x), y: Int(y)))
}

@_cdecl("tactile_wlcs_pointer_create")
func wlcsPointerCreate(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged.passRetained(WLCSPointer(object(context))).toOpaque()
}

@_cdecl("tactile_wlcs_pointer_move")
func wlcsPointerMove(_ pointer: UnsafeMutableRawPointer?, _ x: Double, _ y: Double, _ relative: Int32) {
    let server = (object(pointer) as WLCSPointer).owner.server
    // Relative moves go as a mouse's do, so pointer locks and confinement apply to them.
    if relative != 0 {
        server.handleRelativeMotion(RelativeMotion(dx: x, dy: y, unacceleratedDX: x, unacceleratedDY: y), time: server.currentTime)
    } else {
        server.handle(.pointerMotion(global: Point(x: x, y: y), time: server.currentTime))
    }
}

@_cdecl("tactile_wlcs_pointer_button")
func wlcsPointerButton(_ pointer: UnsafeMutableRawPointer?, _ button: Int32, _ pressed: Int32) {
    let owner = (object(pointer) as WLCSPointer).owner
    owner.server.handle(.pointerButton(button: UInt32(button), state: pressed != 0 ? .pressed : .released, time: owner.server.currentTime))
}

@_cdecl("tactile_wlcs_pointer_destroy")
func wlcsPointerDestroy(_ pointer: UnsafeMutableRawPointer?) {
    Unmanaged<WLCSPointer>.fromOpaque(pointer!).release()
}

@_cdecl("tactile_wlcs_touch_create")
func wlcsTouchCreate(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let owner: WLCSServer = object(context)
    owner.nextTouchID += 1
    return Unmanaged.passRetained(WLCSTouch(owner, id: owner.nextTouchID)).toOpaque()
}

/// Phase 0 down, 1 motion, 2 up; each is a group of its own, so a frame follows.
@_cdecl("tactile_wlcs_touch")
func wlcsTouch(_ touch: UnsafeMutableRawPointer?, _ phase: Int32, _ x: Double, _ y: Double) {
    let finger: WLCSTouch = object(touch)
    let server = finger.owner.server
    let time = server.currentTime
    switch phase {
    case 0: server.handle(.touchDown(id: finger.id, global: Point(x: x, y: y), time: time))
    case 1: server.handle(.touchMotion(id: finger.id, global: Point(x: x, y: y), time: time))
    default: server.handle(.touchUp(id: finger.id, time: time))
    }
    server.handle(.touchFrame)
}

@_cdecl("tactile_wlcs_touch_destroy")
func wlcsTouchDestroy(_ touch: UnsafeMutableRawPointer?) {
    Unmanaged<WLCSTouch>.fromOpaque(touch!).release()
}
