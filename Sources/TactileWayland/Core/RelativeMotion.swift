/// Relative motion of a mouse or touchpad, as libinput reports it: accelerated (what moves
/// the cursor) and as the device measured it (what a game or a 3D view wants).
public struct RelativeMotion: Sendable, Hashable {
    public var dx, dy: Double
    public var unacceleratedDX, unacceleratedDY: Double

    public init(dx: Double, dy: Double, unacceleratedDX: Double, unacceleratedDY: Double) {
        self.dx = dx
        self.dy = dy
        self.unacceleratedDX = unacceleratedDX
        self.unacceleratedDY = unacceleratedDY
    }
}
