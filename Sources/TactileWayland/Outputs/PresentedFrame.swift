import Responder

/// How a backend showed a frame, as wp_presentation reports it: when (CLOCK_MONOTONIC),
/// the display's frame counter where it has one, and how precise both are.
public struct PresentedFrame: Sendable, Hashable {
    public var time: Instant
    /// The vblank counter (a DRM page flip's sequence); 0 when the backend has none.
    public var sequence: UInt64
    public var flags: Flags

    /// wp_presentation_feedback.kind's bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Shown at a vertical blank: no tearing.
        public static let vsync = Flags(rawValue: 0x1)
        /// The time comes from the display hardware's clock.
        public static let hardwareClock = Flags(rawValue: 0x2)
        /// The hardware said when it was shown (a page-flip event), rather than a guess.
        public static let hardwareCompletion = Flags(rawValue: 0x4)
    }

    public init(time: Instant, sequence: UInt64 = 0, flags: Flags = []) {
        self.time = time
        self.sequence = sequence
        self.flags = flags
    }
}
