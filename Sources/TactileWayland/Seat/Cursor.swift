import CWaylandServer
import Responder

/// The cursor role (wl_pointer.set_cursor): a surface drawn at the pointer, its hotspot on
/// the pointer's position, while the pointer is over a surface of the client that set it.
final class Cursor: SurfaceRole {
    let roleName = "cursor"
    weak var surface: Surface?
    var hotspot: Position
    /// Tells the composition the image changed.
    private let changed: () -> Void

    init(surface: Surface, hotspot: Position, changed: @escaping () -> Void) {
        self.surface = surface
        self.hotspot = hotspot
        self.changed = changed
        surface.content?.image.keepCopy(upTo: Self.largestCopy)
    }

    /// A 512×512 cursor is more than any theme's largest; a larger image shows no cursor.
    static let largestCopy = 512 * 512 * 4

    var isMapped: Bool { true }

    /// A cursor's pixels are copied, unlike other surfaces' (`BufferReference`): it is drawn
    /// into every frame and every screenshot, and a copy of at most 1 MiB spares each of them
    /// a guarded read of the client's file.
    func committed(surface: Surface, hadBuffer: Bool) {
        surface.content?.image.keepCopy(upTo: Self.largestCopy)
        changed()
    }

    func surfaceDestroyed() { changed() }

    /// What a set_cursor request (wl_pointer's, a tablet tool's) with `resource` and
    /// `hotspot` chooses: hidden for no surface, else the surface as a cursor, taking the
    /// role or, holding it already, moving its hotspot; nil when the surface has another
    /// role, which is the caller's protocol error.
    static func choice(for resource: OpaquePointer?, hotspot: Position, changed: @escaping () -> Void) -> CursorChoice? {
        guard let resource, let surface = Surface.from(resource) else { return .hidden }
        if let role = surface.role as? Cursor {
            role.hotspot = hotspot
            return .surface(role)
        }
        guard !surface.hasRole else { return nil }
        let role = Cursor(surface: surface, hotspot: hotspot, changed: changed)
        surface.role = role
        return .surface(role)
    }
}

extension Seat {
    /// wl_pointer.set_cursor: honoured only with the serial of the client's latest pointer
    /// enter, as the protocol says, so a client cannot change the cursor while the pointer
    /// is elsewhere. A nil surface hides the cursor.
    func setCursor(for client: SeatClient, serial: UInt32, surface resource: OpaquePointer?, hotspot: Position, pointer: OpaquePointer) {
        guard serial == client.pointerEnterSerial else { return }
        guard let choice = Cursor.choice(for: resource, hotspot: hotspot, changed: { [weak self] in self?.cursorChanged.send() }) else {
            return tactile_post_error(pointer, WL_POINTER_ERROR_ROLE.rawValue, "wl_surface already has another role; it cannot be a cursor")
        }
        client.cursor = choice
        cursorChanged.send()
    }
}

extension Seat {
    /// wp_cursor_shape_device_v1.set_shape: a cursor from the theme by its Xcursor name,
    /// under the same serial rule as wl_pointer.set_cursor.
    func setCursorShape(for client: SeatClient, serial: UInt32, name: String) {
        guard serial == client.pointerEnterSerial else { return }
        client.cursor = .shape(name)
        cursorChanged.send()
    }
}

/// What a client asked the pointer to look like over its surfaces.
enum CursorChoice {
    /// Nothing asked yet.
    case unset
    case hidden
    case surface(Cursor)
    /// A cursor of the theme, by its Xcursor name (cursor-shape).
    case shape(String)
}

extension Seat {
    /// The cursor to draw and its global frame, once the seat has a pointer and it has
    /// moved (to `position`): the cursor surface of the client under the pointer (`client`)
    /// when it set one (nothing while that surface has no content, or when the client hid
    /// the cursor), else Tactile's arrow.
    func cursorToDraw(client: ClientID?, at position: Point?) -> (content: SurfaceContent, frame: Rect)? {
        guard capabilities.contains(.pointer) || remoteCursor else { return nil }
        return cursorToDraw(choice: client.flatMap { clients[$0]?.cursor } ?? .unset, at: position)
    }

    /// `choice` drawn at `position` (a pen's tool cursor, or the pointer's), when cursors
    /// are shown.
    func cursorToDraw(choice: CursorChoice, at position: Point?) -> (content: SurfaceContent, frame: Rect)? {
        guard cursorShown, let position else { return nil }
        let (content, hotspot): (SurfaceContent?, Position) = switch choice {
        case .unset: (DefaultCursor.content, DefaultCursor.hotspot)
        case .hidden: (nil, .zero)
        case .surface(let cursor): (cursor.surface?.content, cursor.hotspot)
        case .shape(let name): cursorTheme.cursor(named: name) ?? (DefaultCursor.content, DefaultCursor.hotspot)
        }
        guard let content else { return nil }
        let origin = Position(x: Int(position.x.rounded(.down)) - hotspot.x, y: Int(position.y.rounded(.down)) - hotspot.y)
        return (content, Rect(origin: origin, size: content.size))
    }
}
