import CWaylandServer
import Glibc
import Responder

/// Something the server's event loop calls back: an fd becoming readable, a timer, a signal.
/// Releasing it removes the libwayland event source (which nothing else frees) and the
/// closure (which may reach its owner unowned), so an owner keeps its sources exactly as
/// long as it wants their callbacks.
///
/// A source handed out of the server keeps the server (`loopOwner`), and so its loop,
/// alive: however its holder's references are released, the loop goes last. The server's
/// own sources keep nothing, or the server would keep itself.
public final class EventSource {
    private let callback: Unmanaged<Callback>
    private var source: OpaquePointer?
    private let loopOwner: AnyObject?
    /// A deadline's timerfd, closed with the source; -1 for the other kinds.
    private let timerFD: Int32

    private init(_ fire: @escaping () -> Void, loopOwner: AnyObject?, timerFD: Int32 = -1, add: (UnsafeMutableRawPointer) -> OpaquePointer?) {
        callback = Unmanaged.passRetained(Callback(fire))
        self.loopOwner = loopOwner
        self.timerFD = timerFD
        source = add(callback.toOpaque())
    }

    /// Calls `fire` whenever `fd` can be read.
    static func readable(_ fd: Int32, on loop: OpaquePointer, loopOwner: AnyObject?, _ fire: @escaping () -> Void) -> EventSource {
        EventSource(fire, loopOwner: loopOwner) { data in
            wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE), { _, _, data in Callback.run(data) }, data)
        }
    }

    /// Calls `fire` whenever `fd` can be written (a pipe a reader is slow to drain).
    static func writable(_ fd: Int32, on loop: OpaquePointer, loopOwner: AnyObject?, _ fire: @escaping () -> Void) -> EventSource {
        EventSource(fire, loopOwner: loopOwner) { data in
            wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_WRITABLE), { _, _, data in Callback.run(data) }, data)
        }
    }

    /// Calls `fire` once each time the timer, armed with `arm(milliseconds:)`, runs out.
    static func timer(on loop: OpaquePointer, loopOwner: AnyObject?, _ fire: @escaping () -> Void) -> EventSource {
        EventSource(fire, loopOwner: loopOwner) { data in wl_event_loop_add_timer(loop, { data in Callback.run(data) }, data) }
    }

    /// Calls `fire` once each time the time set with `arm(at:)` comes, to the microsecond: a
    /// timerfd of its own, where libwayland's timers count whole milliseconds (a frame due
    /// 16.67 ms after a vblank would wait until 17). For frame timing; everything else uses
    /// `timer`, which costs no file descriptor.
    static func deadline(on loop: OpaquePointer, loopOwner: AnyObject?, _ fire: @escaping () -> Void) -> EventSource {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        return EventSource({
            var expirations: UInt64 = 0
            _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
            fire()
        }, loopOwner: loopOwner, timerFD: fd) { data in
            fd < 0 ? nil : wl_event_loop_add_fd(loop, fd, UInt32(WL_EVENT_READABLE), { _, _, data in Callback.run(data) }, data)
        }
    }

    /// Calls `fire` on the loop when `signal` arrives (libwayland blocks it on this thread and
    /// reads it from a signalfd).
    static func signal(_ signal: Int32, on loop: OpaquePointer, loopOwner: AnyObject?, _ fire: @escaping () -> Void) -> EventSource {
        EventSource(fire, loopOwner: loopOwner) { data in wl_event_loop_add_signal(loop, signal, { _, data in Callback.run(data) }, data) }
    }

    /// A timer's next firing, `milliseconds` from now; 0 disarms it.
    public func arm(milliseconds: Int32) {
        if let source { wl_event_source_timer_update(source, milliseconds) }
    }

    /// A deadline that will not fire until armed again.
    public func disarm() {
        guard timerFD >= 0 else { return }
        var spec = itimerspec()
        timerfd_settime(timerFD, 0, &spec, nil)
    }

    /// A deadline's next firing, at `time` on CLOCK_MONOTONIC (at once when it has passed).
    public func arm(at time: Instant) {
        guard timerFD >= 0 else { return }
        // A zero it_value disarms a timerfd: the earliest time it takes is 1 ns.
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(time.microseconds / 1_000_000)
        spec.it_value.tv_nsec = max(1, Int(time.microseconds % 1_000_000) * 1000)
        timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    deinit {
        if let source { wl_event_source_remove(source) }
        if timerFD >= 0 { close(timerFD) }
        callback.release()
    }
}

/// The closure an event source calls, kept at a stable address for libwayland.
private final class Callback {
    let fire: () -> Void
    init(_ fire: @escaping () -> Void) { self.fire = fire }

    static func run(_ data: UnsafeMutableRawPointer?) -> Int32 {
        // Kept for the call: an owner may release its source from the callback itself.
        let callback = Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue()
        withExtendedLifetime(callback) { callback.fire() }
        return 0
    }
}

/// An event source held weakly: whoever made it decides how long it lives.
struct WeakSource {
    weak var source: EventSource?
    init(_ source: EventSource) { self.source = source }
}
