/// Where the core's decisions go. The protocol layer's sink sends wl_* events; tests record.
///
/// Passed `inout` to each call rather than stored, so the core keeps no reference to the
/// server and a test can inspect exactly what one call produced.
public protocol DeliverySink {
    mutating func deliver(_ delivery: Delivery)
    /// Defaults to dropping the diagnostic.
    mutating func report(_ diagnostic: Diagnostic)
    /// A compositor gesture won, went on, or failed. Defaults to dropping it.
    mutating func gesture(_ event: GestureEvent)
    /// Whether the core should explain its decisions (`trace`). Defaults to false, and the
    /// core then builds no `TraceEvent`.
    var isTracing: Bool { get }
    /// A decision explained; called only while `isTracing`.
    mutating func trace(_ event: TraceEvent)
}

extension DeliverySink {
    public mutating func report(_ diagnostic: Diagnostic) {}
    public mutating func gesture(_ event: GestureEvent) {}
    public var isTracing: Bool { false }
    public mutating func trace(_ event: TraceEvent) {}
}

/// Keeps everything it is given, in order: the sink of tests and of the demo.
public struct RecordingSink: DeliverySink {
    public var deliveries: [Delivery] = []
    public var diagnostics: [Diagnostic] = []
    public var gestures: [GestureEvent] = []
    /// Kept only when `isTracing` was set.
    public var traces: [TraceEvent] = []
    public var isTracing: Bool

    public init(tracing: Bool = false) { isTracing = tracing }

    public mutating func deliver(_ delivery: Delivery) { deliveries.append(delivery) }
    public mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
    public mutating func gesture(_ event: GestureEvent) { gestures.append(event) }
    public mutating func trace(_ event: TraceEvent) { traces.append(event) }

    /// Returns what was recorded since the last call, and forgets it.
    public mutating func take() -> (deliveries: [Delivery], diagnostics: [Diagnostic]) {
        defer {
            deliveries.removeAll()
            diagnostics.removeAll()
        }
        return (deliveries, diagnostics)
    }
}
