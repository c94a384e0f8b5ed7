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
/// copied without touching the heap. A ninth slot type on one surface spills into an array.
struct SurfaceSlots {
    private typealias Entry = (key: ObjectIdentifier, value: any SurfaceStateSlot)
    private var inline = InlineArray<8, Entry?>(repeating: nil)
    private var spilled: [Entry] = []

    /// The value of type `S`, or `S()` where none was set.
    subscript<S: SurfaceStateSlot>(_ type: S.Type) -> S {
        get {
            let key = ObjectIdentifier(S.self)
            for index in inline.indices {
                guard let entry = inline[index] else { return S() }
                if entry.key == key { return entry.value as! S }
            }
            return spilled.first { $0.key == key }.map { $0.value as! S } ?? S()
        }
        set { update(S.self) { $0 = newValue } }
    }

    /// Changes the value of type `S` in place: it is taken out while `change` runs, so a value
    /// holding a collection is not copied to be changed.
    mutating func update<S: SurfaceStateSlot>(_ type: S.Type, _ change: (inout S) -> Void) {
        let key = ObjectIdentifier(S.self)
        for index in inline.indices {
            guard let entry = inline[index] else {
                var value = S()
                change(&value)
                inline[index] = (key, value)
                return
            }
            if entry.key == key {
                var value = entry.value as! S
                inline[index] = nil
                change(&value)
                inline[index] = (key, value)
                return
            }
        }
        if let index = spilled.firstIndex(where: { $0.key == key }) {
            var value = spilled[index].value as! S
            spilled[index].value = S()
            change(&value)
            spilled[index].value = value
        } else {
            var value = S()
            change(&value)
            spilled.append((key, value))
        }
    }

    /// After a commit took the pending state: values that do not persist start over. Nothing
    /// is written where none of them was set.
    mutating func startOver() {
        guard contains(where: { !type(of: $0).persists }) else { return }
        var kept = SurfaceSlots()
        forEachEntry { entry in
            if type(of: entry.value).persists { kept.append(entry) }
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
        for index in inline.indices {
            guard let entry = inline[index] else { return false }
            if predicate(entry.value) { return true }
        }
        return spilled.contains { predicate($0.value) }
    }

    /// Inline entries fill from the front, so the first empty one ends them.
    private func forEachEntry(_ body: (Entry) -> Void) {
        for index in inline.indices {
            guard let entry = inline[index] else { return }
            body(entry)
        }
        spilled.forEach(body)
    }

    private mutating func append(_ entry: Entry) {
        for index in inline.indices {
            if case .none = inline[index] {
                inline[index] = entry
                return
            }
        }
        spilled.append(entry)
    }
}
