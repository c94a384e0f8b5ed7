/// The configuration file's `idle` section: when the screens sleep, and what the input that
/// wakes them does. Off unless a timeout is given.
public struct IdleSettings: Sendable, Hashable {
    /// Seconds with no input before every screen powers off; nil: never.
    public var timeout: Int?
    public var wake: Wake

    /// What becomes of the input that wakes the screens.
    public enum Wake: String, CaseIterable, Sendable {
        /// Goes nowhere, the whole of it (a touch with its motions and its end, a key with its
        /// release): a finger that wakes a dark kiosk must not also press what it cannot see.
        case swallow
        /// Is routed as any other.
        case deliver
    }

    /// The longest timeout taken: a day.
    public static let timeouts: ClosedRange<Int> = 1...86_400

    public init(timeout: Int? = nil, wake: Wake = .swallow) {
        self.timeout = timeout
        self.wake = wake
    }
}
