import CWaylandServer
import Responder

/// wl_touch events, to every wl_touch of the client.
extension Seat {
    func touchDown(_ client: SeatClient, surface: OpaquePointer, id: Int32, at local: Point, time: Instant) {
        let serial = inputSerial(for: client)
        for touch in client.touches {
            client.stamp(touch, time)
            wl_touch_send_down(touch, serial, time.milliseconds, surface, id, fixed(local.x), fixed(local.y))
        }
    }

    func touchMotion(_ client: SeatClient, id: Int32, to local: Point, time: Instant) {
        for touch in client.touches {
            client.stamp(touch, time)
            wl_touch_send_motion(touch, time.milliseconds, id, fixed(local.x), fixed(local.y))
        }
    }

    func touchUp(_ client: SeatClient, id: Int32, time: Instant) {
        let serial = inputSerial(for: client)
        for touch in client.touches {
            client.stamp(touch, time)
            wl_touch_send_up(touch, serial, time.milliseconds, id)
        }
    }

    func touchFrame(_ client: SeatClient) {
        for touch in client.touches { wl_touch_send_frame(touch) }
    }

    func touchCancel(_ client: SeatClient) {
        for touch in client.touches { wl_touch_send_cancel(touch) }
    }
}
