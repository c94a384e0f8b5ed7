/// The numbers a backend gives the pens or pads it sees (`InputEvent.penProximity`'s
/// `pen`, `.pad`'s `pad`): from 1 up, wrapping back to 1 past Int32.max rather than
/// trapping, however many a long-running seat sees.
struct DeviceNumbers {
    private var next: Int32 = 1

    mutating func take() -> Int32 {
        defer { next = next == .max ? 1 : next + 1 }
        return next
    }
}
