import CWaylandServer
import WaylandProtocols
import Responder

/// The seat: the wl_seat global, every client's wl_pointer, wl_keyboard and wl_touch, the
/// keymap and its XKB state, the capabilities backends announce, and the clipboard. The
/// core decides who gets an event; the seat writes it (`Seat+Touch`, `+Pointer`,
/// `+Keyboard`, through `ProtocolSink`).
final class Seat: ServerPart {
    static let version: Int32 = 9

    let keymap: Keymap?
    /// The keymap keys are heard under now: the seat's, or that of the virtual keyboard that
    /// sent the latest key or modifiers (an on-screen keyboard's own layout).
    var activeKeymap: Keymap?
    /// What wl_seat.name says: `seat0`, or a transient seat's own name (`TransientSeats`).
    let name: String
    /// The kinds of input device the seat has, as wl_seat.capabilities tells clients.
    private(set) var capabilities: InputCapabilities
    /// Each client's seat resources, from its first wl_seat until it disconnects.
    private(set) var clients: [ClientID: SeatClient] = [:]
    /// What takes input from normal routing for now (`InputGrab`).
    let grabs = InputGrabs()
    /// Tells the core which devices a client listens to.
    var devicesChanged: (ClientID, InputCapabilities) -> Void = { _, _ in }
    /// The focus a client holds on this seat, as the seat's core has it (`HeldFocus`).
    var focusHeld: (ClientID) -> HeldFocus = { _ in HeldFocus() }
    /// A client's cursor image or choice changed, or the cursor came or went (composition
    /// follows it).
    let cursorChanged: Signal<Void>
    let cursorPolicy: CursorPolicy
    /// Where named cursors (cursor-shape) come from.
    let cursorTheme: CursorTheme
    /// Whether the cursor is drawn now: the policy shows it (`CursorPolicy.shown`), or a
    /// remote helper's virtual pointer is in use (`remoteCursor`).
    private(set) var cursorShown: Bool
    private var policyShown: Bool
    /// A virtual pointer moved or clicked lately (`VirtualPointers`): its cursor is drawn
    /// whatever the policy, and on a seat without a pointer, so the person at the kiosk sees
    /// what the helper far away does.
    var remoteCursor = false {
        didSet { updateCursorShown() }
    }
    private let nextSerial: () -> UInt32
    private var global: Global?
    /// Its wl_seat, wl_pointer, wl_keyboard and wl_touch resources alive: each carries the
    /// seat unretained, so a seat that ends (a transient one) is kept until none is left.
    private(set) var resourceCount = 0

    /// `event` came from a device: under the cursor policy, the cursor may come or go.
    func cursorPolicySees(_ event: InputEvent) {
        policyShown = cursorPolicy.shown(after: event, before: policyShown)
        updateCursorShown()
    }

    private func updateCursorShown() {
        let shown = policyShown || remoteCursor
        guard shown != cursorShown else { return }
        cursorShown = shown
        cursorChanged.send()
    }

    init(display: OpaquePointer, name: String = "seat0", capabilities: InputCapabilities = [.pointer, .keyboard, .touch], keymap: Keymap?,
         cursorPolicy: CursorPolicy, cursorTheme: CursorTheme, cursorChanged: Signal<Void>) {
        self.name = name
        self.capabilities = capabilities
        self.cursorChanged = cursorChanged
        self.cursorPolicy = cursorPolicy
        self.cursorTheme = cursorTheme
        cursorShown = cursorPolicy == .always
        policyShown = cursorShown
        self.keymap = keymap
        activeKeymap = keymap
        nextSerial = { wl_display_next_serial(display) }
        global = Global(display: display, interface: tactile_wl_seat_interface(), version: Self.version, context: self,
                        requests: Self.requests, destroyed: { resource in
                            guard let resource, let seat = Global.context(of: resource, as: Seat.self) else { return }
                            seat.resourceCount -= 1
                            seat.clients.values.first { $0.client == wl_resource_get_client(resource) }?.seats.removeAll { $0 == resource }
                        }) { [unowned self] resource, client in
            resourceCount += 1
            guard let state = ClientState.of(client) else { return }
            self.client(state).seats.append(resource)
            // The seat's as they are now (not `init`'s arguments).
            wl_seat_send_capabilities(resource, self.capabilities.wire)
            if wl_resource_get_version(resource) >= 2 { wl_seat_send_name(resource, self.name) }
        }
    }

    /// The registry name clients bind the wl_seat global by, for `client`.
    func globalName(for client: OpaquePointer) -> UInt32? { global?.name(for: client) }

    /// Withdraws the wl_seat global (a transient seat that ends); the resources clients
    /// bound stay until they release them, and hear nothing more.
    func removeGlobal() { global?.remove() }

    /// The seat's resources of `state`, made on first use.
    func client(_ state: ClientState) -> SeatClient {
        if let known = clients[state.id] { return known }
        let made = SeatClient(client: state.client, id: state.id)
        clients[state.id] = made
        return made
    }

    /// The client went away; its resources went with it.
    func clientDisconnected(_ client: ClientID) {
        clients[client] = nil
    }

    /// Whether `serial` is one of the latest input events `client` was sent.
    func isRecentInput(_ serial: UInt32, of client: ClientID) -> Bool {
        clients[client]?.inputSerials.contains(serial) ?? false
    }

    func setCapabilities(_ new: InputCapabilities) {
        guard new != capabilities else { return }
        capabilities = new
        for client in clients.values {
            for seat in client.seats { wl_seat_send_capabilities(seat, new.wire) }
        }
    }

    /// A serial for a seat event to `client`, remembered as one it may start a grab with.
    func inputSerial(for client: SeatClient) -> UInt32 {
        let serial = nextSerial()
        client.inputSerials.record(serial)
        return serial
    }

    /// A serial for an event that starts nothing (modifiers).
    func serial() -> UInt32 { nextSerial() }

    fileprivate func deviceAdded(_ kind: SeatDevice.Kind, _ client: OpaquePointer, _ seat: OpaquePointer, _ id: UInt32) {
        guard let state = ClientState.of(client) else { return }
        let owner = self.client(state)
        let device = SeatDevice(kind: kind, seat: self, owner: owner)
        let version = wl_resource_get_version(seat)
        let bound = switch kind {
        case .pointer: device.bind(client: client, interface: tactile_wl_pointer_interface(), version: version, id: id, implementation: SeatDevice.pointerRequests)
        case .keyboard: device.bind(client: client, interface: tactile_wl_keyboard_interface(), version: version, id: id, implementation: SeatDevice.keyboardRequests)
        case .touch: device.bind(client: client, interface: tactile_wl_touch_interface(), version: version, id: id, implementation: SeatDevice.touchRequests)
        }
        guard bound, let resource = device.resource else { return }
        resourceCount += 1
        owner.add(resource, kind)
        if kind == .keyboard {
            // The keymap the client's other keyboards have, so they all read keys alike.
            owner.keymap = owner.keymap ?? keymap
            owner.keymap?.send(to: resource)
            if version >= 4 { wl_keyboard_send_repeat_info(resource, 25, 600) }
        }
        devicesChanged(owner.id, owner.capabilities)
        // A device bound while its client holds the focus hears the enter its others heard
        // (wlroots does the same): else it waits, silent, for a focus change.
        let held = focusHeld(owner.id)
        switch kind {
        case .keyboard: if let (surface, keys) = held.keyboard { keyboardGreet(resource, of: owner, surface: surface, keys: keys) }
        case .pointer: if let (surface, local) = held.pointer { pointerGreet(resource, of: owner, surface: surface, at: local) }
        case .touch: break
        }
    }

    fileprivate func deviceRemoved(_ device: SeatDevice, _ resource: OpaquePointer) {
        resourceCount -= 1
        device.owner.remove(resource, device.kind)
        // A departing client's devices go after the client was forgotten; the core keeps no
        // entry for a client with none.
        devicesChanged(device.owner.id, device.owner.capabilities)
    }

    static let requests = RequestTable(wl_seat_interface(
        get_pointer: { client, seat, id in Global.context(of: seat, as: Seat.self)?.deviceAdded(.pointer, client!, seat!, id) },
        get_keyboard: { client, seat, id in Global.context(of: seat, as: Seat.self)?.deviceAdded(.keyboard, client!, seat!, id) },
        get_touch: { client, seat, id in Global.context(of: seat, as: Seat.self)?.deviceAdded(.touch, client!, seat!, id) },
        release: destroyResource
    ))
}

/// The focus a client holds on a seat: the surfaces its keyboards and pointers were last
/// entered on, with the keys held and where the pointer is on its surface.
struct HeldFocus {
    var keyboard: (surface: OpaquePointer, keys: [UInt32])?
    var pointer: (surface: OpaquePointer, local: Point)?

    init() {}

    /// What `router` says `client` holds, each surface looked up in `surfaces`.
    init(of client: ClientID, in router: InputRouter, surfaces: SurfaceIndex) {
        if let (node, keys) = router.keyboardFocus(heldBy: client), let surface = surfaces.surface(at: node)?.resource {
            keyboard = (surface, keys)
        }
        if let (node, local) = router.pointerFocus(heldBy: client), let surface = surfaces.surface(at: node)?.resource {
            pointer = (surface, local)
        }
    }
}

/// One client's seat resources (several of each kind may exist; every one gets the events),
/// and the serials of the input it was last sent.
final class SeatClient {
    let client: OpaquePointer
    let id: ClientID
    var seats: [OpaquePointer] = []
    private(set) var pointers: [OpaquePointer] = []
    private(set) var keyboards: [OpaquePointer] = []
    private(set) var touches: [OpaquePointer] = []
    /// What a grab, move or resize request of this client must name.
    var inputSerials = InputSerials()
    /// The serial of the latest wl_pointer.enter, which wl_pointer.set_cursor must name.
    var pointerEnterSerial: UInt32?
    var cursor = CursorChoice.unset
    /// The keymap its keyboards were sent last.
    var keymap: Keymap?
    /// Its zwp_tablet_seat_v2 objects (`Tablets`): with one, pens reach it as tablet tools.
    var tabletSeats = 0
    /// zwp_input_timestamps_v1 resources by the device they follow (`stamp`).
    var timestamps: [OpaquePointer: [OpaquePointer]] = [:]

    init(client: OpaquePointer, id: ClientID) {
        self.client = client
        self.id = id
    }

    var capabilities: InputCapabilities {
        var caps: InputCapabilities = []
        if !pointers.isEmpty { caps.insert(.pointer) }
        if !keyboards.isEmpty { caps.insert(.keyboard) }
        if !touches.isEmpty { caps.insert(.touch) }
        if tabletSeats > 0 { caps.insert(.tablet) }
        return caps
    }

    fileprivate func add(_ resource: OpaquePointer, _ kind: SeatDevice.Kind) {
        switch kind {
        case .pointer: pointers.append(resource)
        case .keyboard: keyboards.append(resource)
        case .touch: touches.append(resource)
        }
    }

    fileprivate func remove(_ resource: OpaquePointer, _ kind: SeatDevice.Kind) {
        // Its subscribers hear no more; the address may be reused by the next device.
        timestamps[resource] = nil
        switch kind {
        case .pointer: pointers.removeAll { $0 == resource }
        case .keyboard: keyboards.removeAll { $0 == resource }
        case .touch: touches.removeAll { $0 == resource }
        }
    }
}

extension InputCapabilities {
    var wire: UInt32 {
        (contains(.pointer) ? WL_SEAT_CAPABILITY_POINTER.rawValue : 0)
            | (contains(.keyboard) ? WL_SEAT_CAPABILITY_KEYBOARD.rawValue : 0)
            | (contains(.touch) ? WL_SEAT_CAPABILITY_TOUCH.rawValue : 0)
    }
}

/// A wl_pointer, wl_keyboard or wl_touch: a channel to its client, listed while it lives.
final class SeatDevice: ResourceObject {
    enum Kind { case pointer, keyboard, touch }

    let kind: Kind
    /// Unchecked: every object of a server dies with its display, at the latest while the
    /// server shuts down, when a checked reference would already trap.
    unowned(unsafe) let seat: Seat
    let owner: SeatClient

    init(kind: Kind, seat: Seat, owner: SeatClient) {
        self.kind = kind
        self.seat = seat
        self.owner = owner
    }

    override func resourceDestroyed() {
        guard let resource else { return }
        seat.deviceRemoved(self, resource)
    }

    static let pointerRequests = RequestTable(wl_pointer_interface(
        set_cursor: { _, resource, serial, surface, x, y in
            guard let resource, let device = SeatDevice.from(resource) else { return }
            device.seat.setCursor(for: device.owner, serial: serial, surface: surface, hotspot: Position(x: Int(x), y: Int(y)), pointer: resource)
        },
        release: destroyResource
    ))
    static let keyboardRequests = RequestTable(wl_keyboard_interface(release: destroyResource))
    static let touchRequests = RequestTable(wl_touch_interface(release: destroyResource))
}
