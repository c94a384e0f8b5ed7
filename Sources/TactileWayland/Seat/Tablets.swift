import CWaylandServer
import Responder
import WaylandProtocols

/// A pen as tablet-v2 describes it to clients: what kind of tool, which one (its serial, for
/// tools that have one), what it senses, and the tablet it is used on. Backends describe
/// their pens (`BackendHost.describePen`); a pen never described is `PenTool.standard`.
public struct PenTool: Hashable, Sendable {
    public enum Kind: UInt32, Sendable {
        case pen = 0x140, eraser, brush, pencil, airbrush
        case finger = 0x145, mouse, lens
    }

    public struct Senses: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let tilt = Senses(rawValue: 1 << 0)
        public static let pressure = Senses(rawValue: 1 << 1)
        public static let distance = Senses(rawValue: 1 << 2)
        public static let rotation = Senses(rawValue: 1 << 3)
        public static let slider = Senses(rawValue: 1 << 4)
        public static let wheel = Senses(rawValue: 1 << 5)

        /// Each sense with its zwp_tablet_tool_v2 capability value, in the protocol's order:
        /// what the server announces, and how a parent's or a test's capability is read.
        public static let capabilities: [(sense: Senses, capability: UInt32)] = [
            (.tilt, ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue), (.pressure, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue),
            (.distance, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE.rawValue), (.rotation, ZWP_TABLET_TOOL_V2_CAPABILITY_ROTATION.rawValue),
            (.slider, ZWP_TABLET_TOOL_V2_CAPABILITY_SLIDER.rawValue), (.wheel, ZWP_TABLET_TOOL_V2_CAPABILITY_WHEEL.rawValue),
        ]

        /// The sense of a zwp_tablet_tool_v2 capability value; none for an unknown one.
        public init(capability: UInt32) {
            self = Self.capabilities.first { $0.capability == capability }?.sense ?? []
        }
    }

    public var kind: Kind
    /// 0 for a tool without one.
    public var serial: UInt64
    /// The tool's model id (libinput's tool id, Wacom's numbering: tablet-v2's
    /// hardware_id_wacom); 0 for a tool without one.
    public var hardwareID: UInt64
    public var senses: Senses
    public var tablet: TabletDescription

    public init(kind: Kind, serial: UInt64 = 0, hardwareID: UInt64 = 0, senses: Senses, tablet: TabletDescription) {
        self.kind = kind
        self.serial = serial
        self.hardwareID = hardwareID
        self.senses = senses
        self.tablet = tablet
    }

    /// Test input's pens, and any a backend did not describe.
    public static let standard = PenTool(kind: .pen, senses: [.pressure, .tilt], tablet: TabletDescription(name: "Tactile pen input"))
}

/// A tablet (a screen's digitizer, a desk tablet): zwp_tablet_v2's name, USB ids and device path.
public struct TabletDescription: Hashable, Sendable {
    public var name: String
    public var vendor: UInt32
    public var product: UInt32
    /// The kernel device (/dev/input/eventN), or empty when there is none.
    public var path: String

    public init(name: String, vendor: UInt32 = 0, product: UInt32 = 0, path: String = "") {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.path = path
    }
}

/// zwp_tablet_manager_v2: each client's tablet seats, with a zwp_tablet_v2 for every tablet,
/// a zwp_tablet_tool_v2 for every pen known and a zwp_tablet_pad_v2 for every pad. A client
/// with a tablet seat hears pens over its surfaces as tools (the core's pen deliveries,
/// written here through `ProtocolSink`); one without hears them as its pointer.
final class Tablets: ServerPart {
    private let seat: Seat
    private var seats: [TabletSeat] = []
    /// The pens described, by the backend's pen number, and their order, oldest first.
    private var tools: [Int32: PenTool] = [:]
    private var described: [Int32] = []
    /// The pads described, by the backend's pad number, and their order, oldest first.
    private var pads: [Int32: PadDescription] = [:]
    private var describedPads: [Int32] = []
    /// Descriptions that wait for their pen to leave: a tool replaced while near would hear
    /// the rest of its stroke without proximity_in.
    private var waiting: [Int32: PenTool] = [:]
    /// Pens kept described at once. A backend numbers each physical pen once, so only a
    /// hostile source (test input's numbers are the client's) comes near; past it the
    /// oldest pen's tool is removed.
    static let maximumTools = 32
    private var global: Global?

    init(display: OpaquePointer, seat: Seat) {
        self.seat = seat
        global = Global(display: display, interface: tactile_zwp_tablet_manager_v2_interface(), version: 1,
                        context: self, requests: Self.requests)
    }

    /// Tablets are those the described pens and pads are on.
    private var tablets: [TabletDescription] {
        var seen: [TabletDescription] = []
        let all = tools.values.map(\.tablet) + pads.values.map(\.tablet)
        for tablet in all.sorted(by: { $0.name < $1.name }) where !seen.contains(tablet) { seen.append(tablet) }
        return seen
    }

    private func inUse(_ tablet: TabletDescription) -> Bool {
        tools.values.contains { $0.tablet == tablet } || pads.values.contains { $0.tablet == tablet }
    }

    /// A backend's pen `pen` is `tool`: clients' seats get the tool (and its tablet, if new).
    /// A pen described again as something else is a new tool; the old one is removed.
    func describe(_ pen: Int32, as tool: PenTool) {
        guard !isNear(pen) else { return waiting[pen] = tool }
        guard tools[pen] != tool else { return }
        if tools[pen] != nil { remove(pen) }
        if described.count >= Self.maximumTools { remove(described[0]) }
        tools[pen] = tool
        described.append(pen)
        for tabletSeat in seats { tabletSeat.add(pen, tool) }
    }

    /// Before a pen's first proximity: a pen never described is the standard one.
    func penSeen(_ pen: Int32) {
        if tools[pen] == nil { describe(pen, as: .standard) }
    }

    /// A backend's pad `pad` is `description`: clients' seats get the pad (and its tablet,
    /// if new). Past `maximumTools` pads, the oldest is removed.
    func describe(pad: Int32, as description: PadDescription) {
        let description = description.bounded
        guard pads[pad] != description else { return }
        if pads[pad] != nil { remove(pad: pad) }
        if describedPads.count >= Self.maximumTools { remove(pad: describedPads[0]) }
        pads[pad] = description
        describedPads.append(pad)
        for tabletSeat in seats { tabletSeat.add(pad: pad, description) }
    }

    /// The tablet went: every pen and pad on it, and so the tablet, is removed from clients.
    func remove(_ tablet: TabletDescription) {
        for pen in described where tools[pen]?.tablet == tablet { remove(pen) }
        for pad in describedPads where pads[pad]?.tablet == tablet { remove(pad: pad) }
    }

    private func remove(_ pen: Int32) {
        guard let tool = tools.removeValue(forKey: pen) else { return }
        described.removeAll { $0 == pen }
        let stillUsed = inUse(tool.tablet)
        for tabletSeat in seats { tabletSeat.remove(pen, tablet: stillUsed ? nil : tool.tablet) }
    }

    private func remove(pad: Int32) {
        guard let description = pads.removeValue(forKey: pad) else { return }
        describedPads.removeAll { $0 == pad }
        let stillUsed = inUse(description.tablet)
        for tabletSeat in seats { tabletSeat.remove(pad: pad, tablet: stillUsed ? nil : description.tablet) }
    }

    // MARK: The core's deliveries

    func proximityIn(_ client: SeatClient, pen: Int32, surface: OpaquePointer, local: Point, axes: PenAxes) {
        let serial = seat.inputSerial(for: client)
        forEachTool(of: client, pen) { $0.proximityIn(serial: serial, surface: surface, local: local, axes: axes) }
    }

    /// Whether some client's tool for the pen is between its proximity_in and proximity_out.
    private func isNear(_ pen: Int32) -> Bool {
        seats.contains { $0.tools[pen]?.near == true }
    }

    /// What the pen's tool looks like over its client: the cursor that client set for the
    /// tool (in any of its seats), else Tactile's arrow.
    func cursor(of pen: PenOverTablet) -> CursorChoice {
        for tabletSeat in seats where tabletSeat.owner.id == pen.client {
            guard let tool = tabletSeat.tools[pen.pen] else { continue }
            if case .unset = tool.cursor { continue }
            return tool.cursor
        }
        return .unset
    }

    func proximityOut(_ client: SeatClient, pen: Int32) {
        forEachTool(of: client, pen) { $0.proximityOut() }
    }

    func down(_ client: SeatClient, pen: Int32) {
        let serial = seat.inputSerial(for: client)
        forEachTool(of: client, pen) { $0.down(serial: serial) }
    }

    func up(_ client: SeatClient, pen: Int32) {
        forEachTool(of: client, pen) { $0.up() }
    }

    func motion(_ client: SeatClient, pen: Int32, local: Point, axes: PenAxes) {
        forEachTool(of: client, pen) { $0.motion(local, axes) }
    }

    func button(_ client: SeatClient, pen: Int32, button: UInt32, state: PressState) {
        let serial = seat.inputSerial(for: client)
        forEachTool(of: client, pen) { $0.button(serial: serial, button, state) }
    }

    func frame(_ client: SeatClient, pen: Int32, time: Instant) {
        forEachTool(of: client, pen) { $0.frame(time) }
        if let tool = waiting[pen], !isNear(pen) {
            waiting[pen] = nil
            describe(pen, as: tool)
        }
    }

    /// The pad's control acted, for `client`'s focused `surface`: the pad leaves whatever
    /// other client's surface it was on, enters this one if it is elsewhere, and each of the
    /// client's pad objects hears the action. `alive` finds a surface the pad entered before,
    /// if it still lives, for its leave.
    func pad(_ client: SeatClient, pad: Int32, surface node: NodeID, _ surface: OpaquePointer, _ action: PadAction, time: Instant,
             alive: (NodeID) -> OpaquePointer?) {
        if pads[pad] == nil { describe(pad: pad, as: .standard) }
        for tabletSeat in seats where tabletSeat.owner.id != client.id {
            guard let object = tabletSeat.pads[pad], object.entered != nil else { continue }
            object.leave(serial: seat.inputSerial(for: tabletSeat.owner), alive: alive)
        }
        let serial = seat.inputSerial(for: client)
        for tabletSeat in seats where tabletSeat.owner.id == client.id {
            guard let object = tabletSeat.pads[pad] else { continue }
            object.focus(node, surface, serial: serial, alive: alive)
            object.act(action, time: time)
        }
    }

    /// The pen's tool in each of the client's tablet seats; no array is made, as every pen
    /// motion comes through here.
    private func forEachTool(of client: SeatClient, _ pen: Int32, _ body: (TabletToolObject) -> Void) {
        for tabletSeat in seats where tabletSeat.owner.id == client.id {
            if let tool = tabletSeat.tools[pen] { body(tool) }
        }
    }

    // MARK: Requests

    private static let requests = RequestTable(zwp_tablet_manager_v2_interface(
        get_tablet_seat: { client, manager, id, _ in
            guard let client, let manager, let part = Global.context(of: manager, as: Tablets.self), let state = ClientState.of(client) else { return }
            part.makeSeat(client, state, version: wl_resource_get_version(manager), id: id)
        },
        destroy: destroyResource
    ))

    private func makeSeat(_ client: OpaquePointer, _ state: ClientState, version: Int32, id: UInt32) {
        let owner = seat.client(state)
        let tabletSeat = TabletSeat(owner: owner, cursorChanged: { [unowned self] in seat.cursorChanged.send() }) { [unowned self] gone in
            seats.removeAll { $0 === gone }
            gone.owner.tabletSeats -= 1
            seat.devicesChanged(gone.owner.id, gone.owner.capabilities)
        }
        guard tabletSeat.bind(client: client, interface: tactile_zwp_tablet_seat_v2_interface(), version: version, id: id,
                              implementation: TabletSeat.requests) else { return }
        seats.append(tabletSeat)
        for tablet in tablets { tabletSeat.addTablet(tablet) }
        for (pen, tool) in tools.sorted(by: { $0.key < $1.key }) { tabletSeat.add(pen, tool) }
        for pad in describedPads { if let description = pads[pad] { tabletSeat.add(pad: pad, description) } }
        owner.tabletSeats += 1
        seat.devicesChanged(owner.id, owner.capabilities)
    }
}

/// One zwp_tablet_seat_v2 and the tablet and tool objects made for it.
final class TabletSeat: ResourceObject {
    let owner: SeatClient
    private(set) var tablets: [TabletDescription: TabletObject] = [:]
    private(set) var tools: [Int32: TabletToolObject] = [:]
    private(set) var pads: [Int32: TabletPadObject] = [:]
    private let destroyed: (TabletSeat) -> Void
    /// Tells the composition a tool's cursor changed.
    let cursorChanged: () -> Void

    init(owner: SeatClient, cursorChanged: @escaping () -> Void, destroyed: @escaping (TabletSeat) -> Void) {
        self.owner = owner
        self.cursorChanged = cursorChanged
        self.destroyed = destroyed
    }

    override func resourceDestroyed() {
        destroyed(self)
    }

    /// zwp_tablet_v2 made by the server, described, then `done`.
    func addTablet(_ tablet: TabletDescription) {
        guard let resource, tablets[tablet] == nil else { return }
        let object = TabletObject()
        guard object.bind(client: owner.client, interface: tactile_zwp_tablet_v2_interface(), version: wl_resource_get_version(resource), id: 0,
                          implementation: TabletObject.requests), let made = object.resource else { return }
        tablets[tablet] = object
        zwp_tablet_seat_v2_send_tablet_added(resource, made)
        zwp_tablet_v2_send_name(made, tablet.name)
        if tablet.vendor != 0 || tablet.product != 0 { zwp_tablet_v2_send_id(made, tablet.vendor, tablet.product) }
        if !tablet.path.isEmpty { zwp_tablet_v2_send_path(made, tablet.path) }
        zwp_tablet_v2_send_done(made)
    }

    func add(_ pen: Int32, _ tool: PenTool) {
        guard let resource else { return }
        addTablet(tool.tablet)
        guard let tablet = tablets[tool.tablet] else { return }
        let object = TabletToolObject(tool: tool, tablet: tablet, cursorChanged: cursorChanged)
        guard object.bind(client: owner.client, interface: tactile_zwp_tablet_tool_v2_interface(), version: wl_resource_get_version(resource), id: 0,
                          implementation: TabletToolObject.requests) else { return }
        tools[pen] = object
        zwp_tablet_seat_v2_send_tool_added(resource, object.resource)
        object.describe()
    }

    func add(pad: Int32, _ description: PadDescription) {
        guard let resource else { return }
        addTablet(description.tablet)
        guard let tablet = tablets[description.tablet] else { return }
        let object = TabletPadObject(description: description, tablet: tablet)
        guard object.bind(client: owner.client, interface: tactile_zwp_tablet_pad_v2_interface(), version: wl_resource_get_version(resource), id: 0,
                          implementation: TabletPadObject.requests) else { return }
        pads[pad] = object
        zwp_tablet_seat_v2_send_pad_added(resource, object.resource)
        object.describe()
    }

    /// The tool is gone, and its tablet with it when `tablet` is given.
    func remove(_ pen: Int32, tablet: TabletDescription?) {
        if let tool = tools.removeValue(forKey: pen), let made = tool.resource { zwp_tablet_tool_v2_send_removed(made) }
        removeTablet(tablet)
    }

    func remove(pad: Int32, tablet: TabletDescription?) {
        pads.removeValue(forKey: pad)?.removed()
        removeTablet(tablet)
    }

    private func removeTablet(_ tablet: TabletDescription?) {
        if let tablet, let made = tablets.removeValue(forKey: tablet)?.resource { zwp_tablet_v2_send_removed(made) }
    }

    static let requests = RequestTable(zwp_tablet_seat_v2_interface(destroy: destroyResource))
}

/// zwp_tablet_v2: describes itself once; its only request is destroy.
final class TabletObject: ResourceObject {
    static let requests = RequestTable(zwp_tablet_v2_interface(destroy: destroyResource))
}

/// zwp_tablet_tool_v2: one pen, for one tablet seat. Axes are sent when they changed since
/// the last frame, and only those the tool senses.
final class TabletToolObject: ResourceObject {
    let tool: PenTool
    /// The tablet object of the same seat, which proximity_in names.
    private let tablet: TabletObject
    private var sent: PenAxes?
    /// The cursor the client set for the tool (set_cursor), drawn at the pen while it is
    /// near one of the client's surfaces as this tool.
    private(set) var cursor = CursorChoice.unset
    /// The serial of the latest proximity_in, which set_cursor must name.
    private var proximitySerial: UInt32?
    /// Between its proximity_in and proximity_out, and until the frame after the latter: a
    /// tool made while its pen was already near (a seat bound mid-stroke) hears nothing of
    /// that stroke.
    private(set) var near = false
    private var leaving = false
    private let cursorChanged: () -> Void

    init(tool: PenTool, tablet: TabletObject, cursorChanged: @escaping () -> Void) {
        self.tool = tool
        self.tablet = tablet
        self.cursorChanged = cursorChanged
    }

    func describe() {
        guard let resource else { return }
        zwp_tablet_tool_v2_send_type(resource, tool.kind.rawValue)
        if tool.serial != 0 { zwp_tablet_tool_v2_send_hardware_serial(resource, UInt32(tool.serial >> 32), UInt32(truncatingIfNeeded: tool.serial)) }
        if tool.hardwareID != 0 {
            zwp_tablet_tool_v2_send_hardware_id_wacom(resource, UInt32(tool.hardwareID >> 32), UInt32(truncatingIfNeeded: tool.hardwareID))
        }
        for (sense, capability) in PenTool.Senses.capabilities where tool.senses.contains(sense) {
            zwp_tablet_tool_v2_send_capability(resource, capability)
        }
        zwp_tablet_tool_v2_send_done(resource)
    }

    func proximityIn(serial: UInt32, surface: OpaquePointer, local: Point, axes: PenAxes) {
        // The client may have destroyed the tablet object: then it hears nothing of the tool.
        guard let resource, let tablet = tablet.resource else { return }
        zwp_tablet_tool_v2_send_proximity_in(resource, serial, tablet, surface)
        proximitySerial = serial
        (near, leaving) = (true, false)
        sent = nil
        motion(local, axes)
    }

    func proximityOut() {
        guard let resource, near else { return }
        (near, leaving) = (false, true)
        zwp_tablet_tool_v2_send_proximity_out(resource)
    }

    func down(serial: UInt32) {
        guard let resource, near else { return }
        zwp_tablet_tool_v2_send_down(resource, serial)
    }

    func up() {
        guard let resource, near else { return }
        zwp_tablet_tool_v2_send_up(resource)
    }

    func motion(_ local: Point, _ axes: PenAxes) {
        guard let resource, near else { return }
        zwp_tablet_tool_v2_send_motion(resource, wl_fixed_from_double(local.x), wl_fixed_from_double(local.y))
        if tool.senses.contains(.pressure), axes.pressure != sent?.pressure {
            zwp_tablet_tool_v2_send_pressure(resource, UInt32((axes.pressure * 65535).rounded()))
        }
        if tool.senses.contains(.distance), axes.distance != sent?.distance {
            zwp_tablet_tool_v2_send_distance(resource, UInt32((axes.distance * 65535).rounded()))
        }
        if tool.senses.contains(.tilt), axes.tiltX != sent?.tiltX || axes.tiltY != sent?.tiltY {
            zwp_tablet_tool_v2_send_tilt(resource, wl_fixed_from_double(axes.tiltX), wl_fixed_from_double(axes.tiltY))
        }
        if tool.senses.contains(.rotation), axes.rotation != sent?.rotation {
            zwp_tablet_tool_v2_send_rotation(resource, wl_fixed_from_double(axes.rotation))
        }
        if tool.senses.contains(.slider), axes.slider != sent?.slider {
            zwp_tablet_tool_v2_send_slider(resource, Int32((axes.slider * 65535).rounded()))
        }
        // The wheel is relative: each turn is sent, and none is kept.
        if tool.senses.contains(.wheel), axes.wheel != 0 || axes.wheelClicks != 0 {
            zwp_tablet_tool_v2_send_wheel(resource, wl_fixed_from_double(axes.wheel), axes.wheelClicks)
        }
        sent = axes
    }

    func button(serial: UInt32, _ button: UInt32, _ state: PressState) {
        guard let resource, near else { return }
        zwp_tablet_tool_v2_send_button(resource, serial, button, state == .pressed ? 1 : 0)
    }

    func frame(_ time: Instant) {
        guard let resource, near || leaving else { return }
        leaving = false
        zwp_tablet_tool_v2_send_frame(resource, time.milliseconds)
    }

    /// set_cursor, honoured only with the serial of the tool's latest proximity_in, as the
    /// protocol says; a nil surface hides the tool's cursor. The surface takes the cursor
    /// role, as wl_pointer's cursor does, and may be both.
    private func setCursor(serial: UInt32, surface resource: OpaquePointer?, hotspot: Position) {
        guard serial == proximitySerial else { return }
        guard let choice = Cursor.choice(for: resource, hotspot: hotspot, changed: cursorChanged) else {
            return postError(ZWP_TABLET_TOOL_V2_ERROR_ROLE.rawValue, "wl_surface already has another role; it cannot be a tool's cursor")
        }
        cursor = choice
        cursorChanged()
    }

    static let requests = RequestTable(zwp_tablet_tool_v2_interface(
        set_cursor: { _, resource, serial, surface, x, y in
            TabletToolObject.from(resource)?.setCursor(serial: serial, surface: surface, hotspot: Position(x: Int(x), y: Int(y)))
        },
        destroy: destroyResource
    ))
}
