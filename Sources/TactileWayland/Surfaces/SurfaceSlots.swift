import Responder

/// Double-buffered state a protocol keeps on a surface (a viewport, an alpha multiplier, fifo's
/// requests), declared in that protocol's own file. It rides in `SurfaceState` beside
/// wl_surface's own fields, so it is pending, cached for a synchronized subsurface, queued
/// while an update waits and applied in the same batch as they are, without `Surface`
/// naming it. A surface without the protocol reads the slot's `init()` value.
protocol SurfaceStateSlot {
    init()
    /// Whether the value stays pending after a commit took it, as most state does; false for
    /// requests about one update only (fifo's barrier, a commit's target time).
    static var persists: Bool { get }
    /// Writes what the value means for hit testing into the surface's scene node; a slot that
    /// changes routing (edge deferral) must also reset what it wrote when set back to `init()`.
    func shape(_ node: inout Node)
    /// Whether applying this value after `previous` changes every pixel the surface shows (an
    /// alpha multiplier), so the whole surface is damaged.
    func changesEveryPixel(from previous: Self) -> Bool
}

extension SurfaceStateSlot {
    static var persists: Bool { true }
    func shape(_ node: inout Node) {}
    func changesEveryPixel(from previous: Self) -> Bool { false }
}

/// The slots of one state, keyed by their type. Held inline: a surface state is copied at
/// every commit, and slots that fit an existential's three words (all of today's) are
/// copied without touching the heap. There is room for every slot type at once (`capacity`:
/// `SurfaceSlotsTests` counts the types in the sources), so the store never grows.
struct SurfaceSlots {
    private typealias Entry = (key: ObjectIdentifier, value: any SurfaceStateSlot)
    private typealias Storage = InlineArray<8, Entry?>
    static var capacity: Int { Storage.count }
    private var entries = Storage(repeating: nil)

    /// The value of type `S`, or `S()` where none was set.
    subscript<S: SurfaceStateSlot>(_ type: S.Type) -> S {
        get {
            let key = ObjectIdentifier(S.self)
            for index in entries.indices {
                guard let entry = entries[index] else { break }
                if entry.key == key { return entry.value as! S }
            }
            return S()
        }
        set { update(S.self) { $0 = newValue } }
    }

    /// Changes the value of type `S` in place: it is taken out while `change` runs, so a value
    /// holding a collection is not copied to be changed.
    mutating func update<S: SurfaceStateSlot>(_ type: S.Type, _ change: (inout S) -> Void) {
        let key = ObjectIdentifier(S.self)
        for index in entries.indices {
            guard let entry = entries[index] else {
                var value = S()
                change(&value)
                entries[index] = (key, value)
                return
            }
            if entry.key == key {
                var value = entry.value as! S
                entries[index] = nil
                change(&value)
                entries[index] = (key, value)
                return
            }
        }
        preconditionFailure("more slot types than SurfaceSlots.capacity (\(Self.capacity))")
    }

    /// After a commit took the pending state: values that do not persist start over. Nothing
    /// is written where none of them was set.
    mutating func startOver() {
        guard contains(where: { !type(of: $0).persists }) else { return }
        var kept = SurfaceSlots()
        var next = 0
        forEachEntry { entry in
            guard type(of: entry.value).persists else { return }
            kept.entries[next] = entry
            next += 1
        }
        self = kept
    }

    func shape(_ node: inout Node) {
        forEachEntry { $0.value.shape(&node) }
    }

    /// Whether any value here changes every pixel compared with `previous`'s.
    func changesEveryPixel(from previous: SurfaceSlots) -> Bool {
        func changes<S: SurfaceStateSlot>(_ value: S) -> Bool { value.changesEveryPixel(from: previous[S.self]) }
        return contains { changes($0) }
    }

    private func contains(where predicate: (any SurfaceStateSlot) -> Bool) -> Bool {
        for index in entries.indices {
            guard let entry = entries[index] else { return false }
            if predicate(entry.value) { return true }
        }
        return false
    }

    /// Entries fill from the front, so the first empty one ends them.
    private func forEachEntry(_ body: (Entry) -> Void) {
        for index in entries.indices {
            guard let entry = entries[index] else { return }
            body(entry)
        }
    }
}
