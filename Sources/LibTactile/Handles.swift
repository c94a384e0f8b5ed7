import Responder
import Synchronization
import TactileABI

/// Routers live in a fixed table of slots, and a `tactile_router *` is a slot number and the
/// slot's generation, never an address: a handle kept past tactile_router_destroy is found
/// stale by its generation instead of being dereferenced (use after free), and the lookup on
/// every event is two loads, with no lock. Only making and destroying routers lock.
enum RouterTable {
    static let capacity = 4096
    private struct Slot {
        var generation: UInt32 = 0
        var router: Unmanaged<Router>?
    }
    /// Allocated by the first router made, under the lock, and never moved or freed (an
    /// Array could be copied on write under a reader on another thread); a slot is written
    /// only while its router is made or destroyed. Starts as nil, a constant, so that it is
    /// laid out statically: a lazily made table would cost every call a `swift_once`, a
    /// third of what a touch frame costs through the ABI.
    nonisolated(unsafe) private static var slots: UnsafeMutablePointer<Slot>? = nil
    private static let lock = Mutex(())

    static func add(_ router: Router) -> OpaquePointer? {
        lock.withLock { _ in
            let slots = slots ?? {
                let made = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
                made.initialize(repeating: Slot(), count: capacity)
                Self.slots = made
                return made
            }()
            guard let free = (0..<capacity).first(where: { slots[$0].router == nil }) else { return nil }
            slots[free].router = Unmanaged.passRetained(router)
            return OpaquePointer(bitPattern: UInt(slots[free].generation) << 16 | UInt(free + 1))
        }
    }

    /// The live router a handle names, or nil for NULL, a destroyed router or a made-up one.
    /// Unmanaged: the table holds the reference, so a call borrows it without counting.
    @inline(__always)
    static func router(_ handle: OpaquePointer?) -> Unmanaged<Router>? {
        guard let handle, let slots else { return nil }
        let bits = UInt(bitPattern: handle)
        let index = Int(bits & 0xffff) - 1
        guard index >= 0, index < capacity, bits >> 16 == UInt(slots[index].generation) else { return nil }
        return slots[index].router
    }

    static func remove(_ handle: OpaquePointer?) {
        guard let handle, router(handle) != nil else { return }
        let router: Unmanaged<Router>? = lock.withLock { _ in
            guard let slots else { return nil }
            let index = Int(UInt(bitPattern: handle) & 0xffff) - 1
            defer {
                slots[index].router = nil
                slots[index].generation &+= 1
            }
            return slots[index].router
        }
        router?.release()
    }
}

/// A node handle: the slot in the low half (plus one, so no node is 0), its generation in
/// the high half. `Scene.contains` refuses every number that names no live node.
extension NodeID {
    init?(handle: tactile_node) {
        let index = handle & 0xffff_ffff
        guard index >= 1, index <= UInt64(Int32.max) else { return nil }
        self.init(index: Int32(index - 1), generation: UInt32(handle >> 32))
    }

    var handle: tactile_node { UInt64(generationValue) << 32 | UInt64(slot + 1) }
}
