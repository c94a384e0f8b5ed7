/// Something one part announces and others follow (a surface was made, a selection changed,
/// a repaint is wanted). Made before both, handed to the announcer and to each follower as it
/// is made, so that no part has behaviour assigned to it from outside once it exists.
final class Signal<Value> {
    private var followers: [(Value) -> Void] = []

    func follow(_ action: @escaping (Value) -> Void) { followers.append(action) }

    func send(_ value: Value) {
        for follower in followers { follower(value) }
    }
}

extension Signal where Value == Void {
    func send() { send(()) }
}
