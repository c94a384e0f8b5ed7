import Responder

/// The window manager's decisions, apart from the protocol that carries them: where a new
/// window goes, what size a window is told to take, which windows may be moved, and who
/// gets focus. `XdgToplevel` and `ShellSurface` ask; `DefaultWindowPolicy` is today's answer.
public protocol WindowPolicy {
    /// Where a new toplevel goes, in global coordinates.
    mutating func placeNewWindow(in layout: [PlacedOutput]) -> Position
    /// The size a window in `state` is told to take on `output` (nil: its own choice), and
    /// whether it is told it is maximized.
    func configure(_ state: WindowState, on output: PlacedOutput?) -> WindowConfiguration
    /// Whether the user may move or resize a window in `state` (xdg_toplevel.move, resize).
    func isMovable(_ state: WindowState) -> Bool
    /// Whether a toplevel takes keyboard focus when it first maps.
    var newWindowFocus: NewWindowFocus { get }
    /// Which window focus-next raises and focuses, given the windows bottom to top.
    func nextFocus(bottomToTop windows: [WindowState]) -> Int?
    /// Who draws a window's title bar and borders (xdg-decoration), given what the client
    /// prefers (nil: no preference).
    func decorations(preferring preferred: Decorations?) -> Decorations
    /// Where a window whose window geometry started at `origin` on `removed` goes, on
    /// `target`, once `removed` left the layout.
    func relocate(_ origin: Position, from removed: PlacedOutput, to target: PlacedOutput) -> Position
    /// The configured rule for a window with this app id and tag (`WindowRule`), if any.
    func rule(appID: String?, tag: String?) -> WindowRule?
}

extension WindowPolicy {
    /// The same offset from the output's corner, kept inside `target`: a window is never
    /// left where no screen shows it.
    public func relocate(_ origin: Position, from removed: PlacedOutput, to target: PlacedOutput) -> Position {
        let offset = Position(x: origin.x - removed.rect.x, y: origin.y - removed.rect.y)
        let clamped = Position(x: min(max(offset.x, 0), max(target.rect.width - 1, 0)), y: min(max(offset.y, 0), max(target.rect.height - 1, 0)))
        return Position(x: target.rect.x + clamped.x, y: target.rect.y + clamped.y)
    }
}

/// When a toplevel that maps takes keyboard focus (`keyboard.focus-new-windows`).
public enum NewWindowFocus: String, CaseIterable, Sendable {
    /// When no window has focus, when its client has it (a dialog of the app in use), or
    /// when it comes with a granted xdg_activation token: no background client takes the
    /// keyboard from the field the user is typing in.
    case activation
    /// Always (a desktop's old way).
    case always
    /// Never: a touch or click gives it focus.
    case never
}

/// Who draws a window's decorations. Tactile draws none: "server" tells the client not to.
public enum Decorations: Sendable, Hashable {
    case client, server
}

/// What the client asked of its window.
public struct WindowState: Sendable, Hashable {
    public var isMaximized: Bool
    public var isFullscreen: Bool

    public init(isMaximized: Bool = false, isFullscreen: Bool = false) {
        self.isMaximized = isMaximized
        self.isFullscreen = isFullscreen
    }
}

/// The policy's answer for one window: the size it is told (nil: its own choice), whether it
/// is told it is maximized, and where it must sit (nil: where it is).
public struct WindowConfiguration: Sendable, Hashable {
    public var size: Size?
    public var isMaximized: Bool
    public var origin: Position?

    public init(size: Size?, isMaximized: Bool, origin: Position? = nil) {
        self.size = size
        self.isMaximized = isMaximized
        self.origin = origin
    }
}

/// Predictable on purpose: the n-th toplevel cascades to (32·(n mod 10), 32·(n mod 10)) from
/// the first output's origin, so tests and kiosk scripts know where a window appears. In
/// kiosk mode the n-th toplevel sits at the origin of the n-th output (round the outputs
/// again past the last one: a kiosk with two screens runs an app on each) and is told to
/// take its output whole; maximized and fullscreen windows take their output too, and none
/// of these moves. "Whole" is what layer surfaces' exclusive zones leave (a kiosk app sits
/// above an on-screen keyboard), except for fullscreen, which covers the output. Focus-next raises the bottom-most window: repeated, it cycles through them all.
public struct DefaultWindowPolicy: WindowPolicy {
    public let kiosk: Bool
    public let newWindowFocus: NewWindowFocus
    public let rules: [WindowRule]
    private var placed = 0

    public init(kiosk: Bool, newWindowFocus: NewWindowFocus = .activation, rules: [WindowRule] = []) {
        self.kiosk = kiosk
        self.newWindowFocus = newWindowFocus
        self.rules = rules
    }

    public func rule(appID: String?, tag: String?) -> WindowRule? {
        rules.first(appID: appID, tag: tag)
    }

    public mutating func placeNewWindow(in layout: [PlacedOutput]) -> Position {
        defer { placed += 1 }
        if kiosk {
            guard !layout.isEmpty else { return .zero }
            return layout[placed % layout.count].usableArea.origin
        }
        let origin = layout.first.map { Position(x: $0.rect.x, y: $0.rect.y) } ?? .zero
        let step = 32 * (placed % 10)
        return Position(x: origin.x + step, y: origin.y + step)
    }

    public func configure(_ state: WindowState, on output: PlacedOutput?) -> WindowConfiguration {
        let fills = kiosk || state.isMaximized || state.isFullscreen
        let area = state.isFullscreen ? output?.rect : output?.usableArea
        // A kiosk app follows its area when a panel or keyboard takes an edge of it.
        return WindowConfiguration(size: fills ? area?.size : nil, isMaximized: kiosk || state.isMaximized, origin: kiosk ? area?.origin : nil)
    }

    public func isMovable(_ state: WindowState) -> Bool {
        !kiosk && !state.isMaximized && !state.isFullscreen
    }

    public func nextFocus(bottomToTop windows: [WindowState]) -> Int? {
        windows.isEmpty ? nil : 0
    }

    /// A kiosk app shows no title bar (Tactile draws none either, as on cage). Elsewhere a
    /// client gets what it asks for, and draws its own when it says nothing: one that asks
    /// for server side may not be able to draw any (SDL2 without libdecor gives up its window
    /// when refused), and Tactile then draws none.
    public func decorations(preferring preferred: Decorations?) -> Decorations {
        kiosk ? .server : preferred ?? .client
    }
}
