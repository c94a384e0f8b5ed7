import CWaylandServer
import Responder
import WaylandProtocols

/// A tablet pad as tablet-v2 describes it: the tablet it belongs to and how many buttons,
/// rings and strips it has. All of them are one group with one mode: the modes a pad's LEDs
/// show come from libwacom's data, which Tactile does not read.
public struct PadDescription: Hashable, Sendable {
    public var tablet: TabletDescription
    public var buttons: UInt32
    public var rings: UInt32
    public var strips: UInt32

    public init(tablet: TabletDescription, buttons: UInt32, rings: UInt32 = 0, strips: UInt32 = 0) {
        self.tablet = tablet
        self.buttons = buttons
        self.rings = rings
        self.strips = strips
    }

    /// Test input's pads, and any a backend did not describe.
    public static let standard = PadDescription(tablet: TabletDescription(name: "Tactile pad input"), buttons: 4, rings: 1, strips: 1)

    /// Controls more than any pad made has come only from a broken source; clients are not
    /// sent thousands of objects for them.
    static let maximumControls: UInt32 = 64

    var bounded: PadDescription {
        PadDescription(tablet: tablet, buttons: min(buttons, Self.maximumControls), rings: min(rings, Self.maximumControls),
                       strips: min(strips, Self.maximumControls))
    }
}

/// zwp_tablet_pad_v2 and its one group, rings and strips, for one tablet seat. The pad
/// enters the surface the core delivers it to (the keyboard focus), leaving the one before.
final class TabletPadObject: ResourceObject {
    let description: PadDescription
    private let tablet: TabletObject
    private var group: ResourceObject?
    private var rings: [ResourceObject] = []
    private var strips: [ResourceObject] = []
    /// The surface the pad entered, and its node, to tell whether that surface still lives.
    private(set) var entered: (node: NodeID, surface: OpaquePointer)?

    init(description: PadDescription, tablet: TabletObject) {
        self.description = description
        self.tablet = tablet
    }

    /// Sent right after pad_added: the path, buttons, the group with its controls, `done`.
    func describe() {
        guard let resource else { return }
        guard let client = wl_resource_get_client(resource) else { return }
        let version = wl_resource_get_version(resource)
        if !description.tablet.path.isEmpty { zwp_tablet_pad_v2_send_path(resource, description.tablet.path) }
        zwp_tablet_pad_v2_send_buttons(resource, description.buttons)
        let group = ResourceObject()
        if group.bind(client: client, interface: tactile_zwp_tablet_pad_group_v2_interface(), version: version, id: 0,
                      implementation: Self.groupRequests), let made = group.resource {
            self.group = group
            zwp_tablet_pad_v2_send_group(resource, made)
            withArray(Array(0..<description.buttons)) { zwp_tablet_pad_group_v2_send_buttons(made, $0) }
            /// `count` ring or strip objects, each announced by the group.
            func controls(_ count: UInt32, _ interface: UnsafePointer<wl_interface>, _ requests: RequestTable,
                          _ announce: (OpaquePointer?, OpaquePointer?) -> Void) -> [ResourceObject] {
                var made: [ResourceObject] = []
                for _ in 0..<count {
                    let control = ResourceObject()
                    guard control.bind(client: client, interface: interface, version: version, id: 0, implementation: requests) else { break }
                    made.append(control)
                    announce(group.resource, control.resource)
                }
                return made
            }
            rings = controls(description.rings, tactile_zwp_tablet_pad_ring_v2_interface(), Self.ringRequests, zwp_tablet_pad_group_v2_send_ring)
            strips = controls(description.strips, tactile_zwp_tablet_pad_strip_v2_interface(), Self.stripRequests, zwp_tablet_pad_group_v2_send_strip)
            zwp_tablet_pad_group_v2_send_modes(made, 1)
            zwp_tablet_pad_group_v2_send_done(made)
        }
        zwp_tablet_pad_v2_send_done(resource)
    }

    /// Leaves the surface it was on (if that surface still lives: `alive` finds it) and
    /// enters `surface`, unless it is there already.
    func focus(_ node: NodeID, _ surface: OpaquePointer, serial: UInt32, alive: (NodeID) -> OpaquePointer?) {
        guard entered?.surface != surface || entered?.node != node else { return }
        leave(serial: serial, alive: alive)
        guard let resource, let tablet = tablet.resource else { return }
        zwp_tablet_pad_v2_send_enter(resource, serial, tablet, surface)
        entered = (node, surface)
    }

    /// Leaves the surface it entered, if any; no leave is sent for a surface that is gone.
    func leave(serial: UInt32, alive: (NodeID) -> OpaquePointer?) {
        guard let entered else { return }
        self.entered = nil
        if let resource, alive(entered.node) == entered.surface { zwp_tablet_pad_v2_send_leave(resource, serial, entered.surface) }
    }

    /// What the control did; controls the pad does not have are not heard.
    func act(_ action: PadAction, time: Instant) {
        guard let resource, entered != nil else { return }
        switch action {
        case .button(let button, let state):
            guard button < description.buttons else { return }
            zwp_tablet_pad_v2_send_button(resource, time.milliseconds, button, state == .pressed ? 1 : 0)
        case .ring(let index, let degrees, let byFinger):
            guard index < rings.count, let ring = rings[Int(index)].resource else { return }
            if byFinger { zwp_tablet_pad_ring_v2_send_source(ring, ZWP_TABLET_PAD_RING_V2_SOURCE_FINGER.rawValue) }
            if let degrees { zwp_tablet_pad_ring_v2_send_angle(ring, wl_fixed_from_double(degrees)) } else { zwp_tablet_pad_ring_v2_send_stop(ring) }
            zwp_tablet_pad_ring_v2_send_frame(ring, time.milliseconds)
        case .strip(let index, let position, let byFinger):
            guard index < strips.count, let strip = strips[Int(index)].resource else { return }
            if byFinger { zwp_tablet_pad_strip_v2_send_source(strip, ZWP_TABLET_PAD_STRIP_V2_SOURCE_FINGER.rawValue) }
            if let position { zwp_tablet_pad_strip_v2_send_position(strip, UInt32((position * 65535).rounded())) } else { zwp_tablet_pad_strip_v2_send_stop(strip) }
            zwp_tablet_pad_strip_v2_send_frame(strip, time.milliseconds)
        }
    }

    func removed() {
        guard let resource else { return }
        zwp_tablet_pad_v2_send_removed(resource)
    }

    /// set_feedback is accepted and not shown: Tactile has no on-screen display for what
    /// a pad's buttons do.
    static let requests = RequestTable(zwp_tablet_pad_v2_interface(
        set_feedback: { _, _, _, _, _ in },
        destroy: destroyResource
    ))
    static let groupRequests = RequestTable(zwp_tablet_pad_group_v2_interface(destroy: destroyResource))
    static let ringRequests = RequestTable(zwp_tablet_pad_ring_v2_interface(set_feedback: { _, _, _, _ in }, destroy: destroyResource))
    static let stripRequests = RequestTable(zwp_tablet_pad_strip_v2_interface(set_feedback: { _, _, _, _ in }, destroy: destroyResource))
}
