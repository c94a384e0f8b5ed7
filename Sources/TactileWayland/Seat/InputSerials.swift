/// The serials of the latest seat events a client was sent (enters, buttons, keys, touch
/// downs and ups). A request that starts a grab, a move or a resize must name one of them:
/// it proves the user just acted on that client, so no client takes the keyboard or the
/// pointer on its own with serial 0 or a guessed one. Clients name the latest serial they
/// saw, which need not be a press (WLCS and toolkits use an enter's or a release's).
struct InputSerials {
    /// Enough for one interaction's events; a client names one of its last few.
    static let kept = 16
    private var serials: [UInt32] = []

    mutating func record(_ serial: UInt32) {
        if serials.count == Self.kept { serials.removeFirst() }
        serials.append(serial)
    }

    func contains(_ serial: UInt32) -> Bool { serials.contains(serial) }
}
