import CWaylandServer
import Glibc
import Responder

/// The server as backends see it (`BackendHost`); outputs are in `WaylandServer+Outputs`.
extension WaylandServer: BackendHost {
    /// The time an event happening now is stamped with: the monotonic clock, as libinput's.
    public var currentTime: Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000)
    }

    /// Tells every client which kinds of device the seat has now.
    public func setSeatCapabilities(_ capabilities: InputCapabilities) {
        parts.seat.setCapabilities(capabilities)
    }

    /// The seat's capabilities as clients last heard them.
    public var seatCapabilities: InputCapabilities { parts.seat.capabilities }

    public func watch(fileDescriptor fd: Int32, onReadable: @escaping () -> Void) -> EventSource {
        EventSource.readable(fd, on: loop, loopOwner: self, onReadable)
    }

    public func makeTimer(_ fire: @escaping () -> Void) -> EventSource {
        EventSource.timer(on: loop, loopOwner: self, fire)
    }

    public func placeToplevel(_ surface: OpaquePointer?, at position: Position) -> Bool {
        guard let surface = Surface.from(surface), let node = surface.node,
              router.scene.node(node)?.isToplevel == true || surface.role is LayerSurface else { return false }
        surface.placeWindow(at: position)
        return true
    }
}
