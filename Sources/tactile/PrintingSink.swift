import Responder

/// Prints each decision of the core as a line a person can follow, naming clients and surfaces.
struct PrintingSink: DeliverySink {
    var surfaceNames: [NodeID: String] = [:]
    var clientNames: [ClientID: String] = [:]
    var gestureNames: [GestureID: String] = [:]

    mutating func deliver(_ delivery: Delivery) {
        print("     → \(name(delivery.client)): \(describe(delivery))")
    }

    mutating func gesture(_ event: GestureEvent) {
        let d = event.detail
        print("     ◆ gesture \(gestureNames[event.gesture] ?? event.gesture.description) \(event.state) at \(d.location), moved \(d.translation)")
    }

    mutating func report(_ diagnostic: Diagnostic) {
        print("     ! \(describe(diagnostic))")
    }

    func name(_ client: ClientID) -> String { clientNames[client] ?? client.description }
    func name(_ node: NodeID) -> String { surfaceNames[node] ?? node.description }

    private func describe(_ delivery: Delivery) -> String {
        switch delivery {
        case .touchDown(_, let s, let id, let local, let time): "wl_touch.down id \(id) on \(name(s)) at \(local) t=\(time.milliseconds)"
        case .touchMotion(_, let s, let id, let local, let time): "wl_touch.motion id \(id) (\(name(s))) at \(local) t=\(time.milliseconds)"
        case .touchUp(_, let id, let time): "wl_touch.up id \(id) t=\(time.milliseconds)"
        case .touchFrame: "wl_touch.frame"
        case .touchCancel: "wl_touch.cancel"
        case .pointerEnter(_, let s, let local): "wl_pointer.enter \(name(s)) at \(local)"
        case .pointerLeave(_, let s): "wl_pointer.leave \(name(s))"
        case .pointerMotion(_, let s, let local, let time): "wl_pointer.motion (\(name(s))) at \(local) t=\(time.milliseconds)"
        case .pointerButton(_, let button, let state, let time): "wl_pointer.button 0x\(String(button, radix: 16)) \(state) t=\(time.milliseconds)"
        case .pointerAxis(_, let motion, _): "wl_pointer.axis \(motion.horizontal), \(motion.vertical)"
        case .pointerFrame: "wl_pointer.frame"
        case .keyboardEnter(_, let s, let keys): "wl_keyboard.enter \(name(s)) keys \(keys)"
        case .keyboardLeave(_, let s): "wl_keyboard.leave \(name(s))"
        case .key(_, let key, let state, let time): "wl_keyboard.key \(key) \(state) t=\(time.milliseconds)"
        case .touchpadGestureBegin(_, let s, let kind, let fingers, let time):
            "zwp_pointer_gesture_\(kind)_v1.begin \(fingers) fingers on \(name(s)) t=\(time.milliseconds)"
        case .touchpadGestureUpdate(_, let kind, let delta, let scale, _, let time):
            "zwp_pointer_gesture_\(kind)_v1.update by \(delta) scale \(scale) t=\(time.milliseconds)"
        case .touchpadGestureEnd(_, let kind, let cancelled, let time):
            "zwp_pointer_gesture_\(kind)_v1.end\(cancelled ? " cancelled" : "") t=\(time.milliseconds)"
        case .penProximityIn(_, let s, let pen, let local, _, _): "zwp_tablet_tool_v2.proximity_in pen \(pen) on \(name(s)) at \(local)"
        case .penProximityOut(_, let pen, _): "zwp_tablet_tool_v2.proximity_out pen \(pen)"
        case .penDown(_, let pen, let time): "zwp_tablet_tool_v2.down pen \(pen) t=\(time.milliseconds)"
        case .penUp(_, let pen, let time): "zwp_tablet_tool_v2.up pen \(pen) t=\(time.milliseconds)"
        case .penMotion(_, let pen, let local, let axes, let time):
            "zwp_tablet_tool_v2.motion pen \(pen) at \(local) pressure \(axes.pressure) tilt \(axes.tiltX), \(axes.tiltY) t=\(time.milliseconds)"
        case .penButton(_, let pen, let button, let state, let time): "zwp_tablet_tool_v2.button pen \(pen) 0x\(String(button, radix: 16)) \(state) t=\(time.milliseconds)"
        case .penFrame(_, let pen, _): "zwp_tablet_tool_v2.frame pen \(pen)"
        case .pad(_, let s, let pad, let action, let time): "zwp_tablet_pad_v2 pad \(pad) on \(name(s)): \(action) t=\(time.milliseconds)"
        }
    }

    private func describe(_ diagnostic: Diagnostic) -> String {
        switch diagnostic {
        case .ignored(let event, let reason): "ignored \(event): \(reason)"
        case .touchDropped(let id, let reason): "touch \(id) goes to nobody: \(reason)"
        case .touchEmulatesPointer(let id, let client): "touch \(id) drives the pointer of \(name(client)), which has no wl_touch"
        case .penEmulatesPointer(let pen): "pen \(pen) drives the pointer: its tip is the left button"
        }
    }
}
