/// A handle to a node in a `Scene`.
///
/// Carries a generation so that a handle kept past its node's removal never reaches the
/// node that later reuses the slot: the protocol layer may hold IDs of destroyed surfaces
/// for a moment, and routing must see them as gone, not as somebody else.
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let index: Int32
    @usableFromInline let generation: UInt32

    /// For the C face, whose handles carry both halves: a handle that names no node is
    /// answered by `Scene.contains` as gone.
    package init(index: Int32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }

    /// Inlinable: libtactile reads it for every decision it hands on.
    @inlinable package var generationValue: UInt32 { generation }

    /// A dense index, for tables keyed by node (an array beats a dictionary in a hot loop).
    /// A removed node's slot is reused by a later node, which gets a different `NodeID`.
    @inlinable public var slot: Int { Int(index) }

    public var description: String { "#\(index)" + (generation == 0 ? "" : "." + String(generation)) }
}

/// A Wayland client, as the protocol layer numbers them. The core never looks inside.
public struct ClientID: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public var description: String { "client \(rawValue)" }
}
