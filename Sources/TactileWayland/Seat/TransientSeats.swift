import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// ext_transient_seat_manager_v1: a remote-help tool (wayvnc) asks for a seat of its own for
/// each remote person, so what they do never moves the local user's pointer or keyboard focus
/// and never takes a local finger's touch. Each seat is a wl_seat global of its own with a
/// routing core of its own (`TransientSeat`); virtual pointers and keyboards created on it
/// give it its capabilities and drive it. In the `input-injection` family, as those are.
final class TransientSeats: ServerPart {
    static let version: Int32 = 1
    /// More seats than remote people a kiosk is helped by at once; past it, `denied`.
    static let perClientLimit = 8

    unowned(unsafe) let context: any PartContext
    private let mainSeat: Seat
    /// What the seats' sinks are made with (`ProtocolSink`).
    private let pointerGestures: PointerGestures
    private let tablets: Tablets
    /// Whether focus on a node is allowed now (not while a lock hides it).
    private let admitsFocus: (NodeID?) -> Bool
    private var global: Global?
    private(set) var live: [TransientSeat] = []
    /// Seats that ended but whose wl_seat, wl_pointer or wl_keyboard a client still holds:
    /// those resources carry the seat, so it stays until the last of them goes (`pruneEnded`,
    /// when the next seat is made or a client leaves).
    private var ended: [Seat] = []
    private var made = 0

    init(display: OpaquePointer, context: any PartContext, seat: Seat, pointerGestures: PointerGestures, tablets: Tablets,
         admitsFocus: @escaping (NodeID?) -> Bool) {
        self.context = context
        mainSeat = seat
        self.pointerGestures = pointerGestures
        self.tablets = tablets
        self.admitsFocus = admitsFocus
        global = Global(display: display, interface: tactile_ext_transient_seat_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .inputInjection)
    }

    /// Where a virtual device created on `seat` (a wl_seat resource) sends its input.
    enum Choice {
        /// The seat, as a device's input.
        case main
        case transient(TransientSeat)
        /// A transient seat that has ended: the device's input goes nowhere.
        case ended
    }

    func choice(for seatResource: OpaquePointer?) -> Choice {
        guard let seat = Global.context(of: seatResource, as: Seat.self), seat !== mainSeat else { return .main }
        return live.first { $0.seat === seat }.map(Choice.transient) ?? .ended
    }

    private func create(_ handle: TransientSeatHandle, client: OpaquePointer) {
        guard let resource = handle.resource, let state = ClientState.of(client) else { return }
        pruneEnded()
        guard live.count(where: { $0.creator == state.id }) < Self.perClientLimit else {
            context.logger.notice("transient seat: refused to client \(state.id.rawValue) (pid \(state.pid)), which has \(Self.perClientLimit) already")
            return ext_transient_seat_v1_send_denied(resource)
        }
        made += 1
        let display = wl_client_get_display(client)!
        let seat = Seat(display: display, name: "transient-\(made)", capabilities: [], keymap: mainSeat.keymap, cursorPolicy: .never,
                        cursorTheme: mainSeat.cursorTheme, cursorChanged: Signal<Void>())
        guard let name = seat.globalName(for: client) else {
            seat.removeGlobal()
            context.logger.error("transient seat: libwayland does not say the new wl_seat's name; refused to client \(state.id.rawValue)")
            return ext_transient_seat_v1_send_denied(resource)
        }
        let transient = TransientSeat(seat: seat, creator: state.id, context: context, pointerGestures: pointerGestures, tablets: tablets,
                                      admitsFocus: admitsFocus)
        handle.seat = transient
        live.append(transient)
        context.logger.info("transient seat \(seat.name) made for client \(state.id.rawValue) (pid \(state.pid)): wl_seat global \(name)")
        ext_transient_seat_v1_send_ready(resource, name)
    }

    fileprivate func end(_ transient: TransientSeat) {
        guard let index = live.firstIndex(where: { $0 === transient }) else { return }
        live.remove(at: index)
        transient.end()
        ended.append(transient.seat)
        context.logger.info("transient seat \(transient.seat.name) ended")
    }

    /// Lets go of the ended seats no resource carries any more. Not from a resource's destroy
    /// handler (the seat is running it) nor before a departing client's resources went.
    private func pruneEnded() {
        ended.removeAll { $0.resourceCount == 0 }
    }

    func clientDisconnected(_ client: ClientID) {
        for transient in live { transient.clientDisconnected(client) }
        for seat in ended { seat.clientDisconnected(client) }
        pruneEnded()
    }

    /// One line per live seat, for the inspector.
    func inspected(naming: (NodeID?) -> String) -> [String] {
        live.map { $0.inspected(naming: naming) }
    }

    private static let requests = RequestTable(ext_transient_seat_manager_v1_interface(
        create: { client, manager, id in
            guard let client, let part = Global.context(of: manager, as: TransientSeats.self) else { return }
            let handle = TransientSeatHandle(part: part)
            guard handle.bind(client: client, interface: tactile_ext_transient_seat_v1_interface(), version: 1, id: id,
                              implementation: TransientSeatHandle.requests) else { return }
            part.create(handle, client: client)
        },
        destroy: destroyResource
    ))
}

/// ext_transient_seat_v1: its seat lives as long as it does.
final class TransientSeatHandle: ResourceObject {
    private unowned(unsafe) let part: TransientSeats
    fileprivate var seat: TransientSeat?

    init(part: TransientSeats) { self.part = part }

    override func resourceDestroyed() {
        if let seat { part.end(seat) }
    }

    static let requests = RequestTable(ext_transient_seat_v1_interface(destroy: destroyResource))
}

/// One transient seat: its wl_seat and clients' devices on it (`Seat`), and a routing core
/// of its own, which hit-tests the server's scene as it is at each event. It has a pointer
/// while a virtual pointer is created on it and a keyboard while a virtual keyboard is; no
/// touch. Its keyboard focus is set by its own clicks; while the session is locked, keys go
/// to nothing but the lock screen. The seat's grabs (popups, interactive moves), gestures
/// and drawn cursor are the local user's and not this seat's.
final class TransientSeat {
    let seat: Seat
    let creator: ClientID
    private unowned(unsafe) let context: any PartContext
    private let pointerGestures: PointerGestures
    private let tablets: Tablets
    private let admitsFocus: (NodeID?) -> Bool
    private var router = InputRouter()
    private var pointers = 0
    private var keyboards = 0
    /// Its handle was destroyed: the devices created on it drive nothing any more.
    private(set) var hasEnded = false
    private var logger: Logger { context.logger }

    init(seat: Seat, creator: ClientID, context: any PartContext, pointerGestures: PointerGestures, tablets: Tablets,
         admitsFocus: @escaping (NodeID?) -> Bool) {
        self.seat = seat
        self.creator = creator
        self.context = context
        self.pointerGestures = pointerGestures
        self.tablets = tablets
        self.admitsFocus = admitsFocus
        seat.devicesChanged = { [weak self] client, devices in self?.router.setCapabilities(devices, for: client) }
        seat.focusHeld = { [weak self] client in
            guard let self else { return HeldFocus() }
            return HeldFocus(of: client, in: router, surfaces: context.surfaces)
        }
    }

    /// Global; nil until a virtual pointer has moved it.
    var pointerPosition: Point? { router.pointerPosition }

    /// A virtual device was created on it (+1) or destroyed (-1).
    func pointerCount(_ change: Int) {
        pointers += change
        updateCapabilities()
    }

    func keyboardCount(_ change: Int) {
        keyboards += change
        updateCapabilities()
    }

    private func updateCapabilities() {
        guard !hasEnded else { return }
        var capabilities: InputCapabilities = []
        if pointers > 0 { capabilities.insert(.pointer) }
        if keyboards > 0 { capabilities.insert(.keyboard) }
        seat.setCapabilities(capabilities)
    }

    /// Routes `event` on this seat, against the scene as the server has it now. Keyboard
    /// focus the session lock does not admit is dropped, before and after.
    func handle(_ event: InputEvent) {
        guard !hasEnded else { return }
        route { router, sink in
            router.updateScene(sink: &sink) { [context] in $0 = context.scene }
            if !admitsFocus(router.keyboardFocus) { router.setKeyboardFocus(nil, because: .policy("session-locked"), sink: &sink) }
            router.handle(event, sink: &sink)
            if !admitsFocus(router.keyboardFocus) { router.setKeyboardFocus(nil, because: .policy("session-locked"), sink: &sink) }
        }
    }

    /// The client with this seat's keyboard focus hears the modifiers a virtual keyboard stated.
    func sendModifiers() {
        guard !hasEnded else { return }
        seat.sendModifiers(toFocused: router.keyboardFocus.flatMap { context.surface(at: $0)?.owner.id })
    }

    /// The seat ends: its focused clients hear their surfaces left, then its global goes.
    func end() {
        route { router, sink in
            router.setKeyboardFocus(nil, because: .policy("seat-ended"), sink: &sink)
            if let node = router.pointerFocus, let client = context.surface(at: node)?.owner.id {
                sink.deliver(.pointerLeave(client, surface: node))
                sink.deliver(.pointerFrame(client))
            }
        }
        hasEnded = true
        router = InputRouter()
        seat.devicesChanged = { _, _ in }
        seat.focusHeld = { _ in HeldFocus() }
        seat.removeGlobal()
    }

    func clientDisconnected(_ client: ClientID) {
        seat.clientDisconnected(client)
        route { router, sink in router.clientDisconnected(client, sink: &sink) }
    }

    func inspected(naming: (NodeID?) -> String) -> String {
        let position = router.pointerPosition.map { "\(Int($0.x)),\(Int($0.y))" } ?? "none"
        return "seat \(seat.name) client=\(creator.rawValue) pointer=\(position) pointer-focus=\(naming(router.pointerFocus)) keyboard-focus=\(naming(router.keyboardFocus))"
    }

    /// The local seat's sink, writing to this seat's clients (only pointer and keyboard
    /// deliveries come: no touch, touchpad or pen reaches this seat).
    private func route(_ step: (inout InputRouter, inout ProtocolSink) -> Void) {
        var sink = ProtocolSink(seat: seat, pointerGestures: pointerGestures, tablets: tablets, surfaces: context.surfaces, logger: logger, tracing: false)
        step(&router, &sink)
    }
}
