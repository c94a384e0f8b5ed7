import Responder
import TactileRender

/// Tactile's own arrow, drawn at the pointer where no client chose a cursor: over the
/// background, and over a client that never called wl_pointer.set_cursor (weston-simple-touch,
/// say). Without it a nested Tactile shows no pointer at all there, since the parent's
/// cursor is hidden over Tactile's window.
enum DefaultCursor {
    /// X: outline, O: fill, anything else: transparent. The hotspot is the tip.
    private static let rows = [
        "X",
        "XX",
        "XOX",
        "XOOX",
        "XOOOX",
        "XOOOOX",
        "XOOOOOX",
        "XOOOOOOX",
        "XOOOOOOOX",
        "XOOOOOOOOX",
        "XOOOOOXXXXX",
        "XOOXOOX",
        "XOX XOOX",
        "XX  XOOX",
        "X    XOOX",
        "     XOOX",
        "      XX",
    ]
    static let hotspot = Position(x: 0, y: 0)

    /// Built once, on first use (the server's thread is the only one that draws).
    nonisolated(unsafe) static let content: SurfaceContent? = {
        let size = Size(width: rows.map(\.count).max() ?? 0, height: rows.count)
        guard let image = Image(size: size, opaque: false) else { return nil }
        let words = image.stride / 4
        let pixels = image.pixels.bindMemory(to: UInt32.self, capacity: words * size.height)
        for (y, row) in rows.enumerated() {
            for (x, mark) in row.enumerated() {
                pixels[y * words + x] = switch mark {
                case "X": 0xff00_0000
                case "O": 0xffff_ffff
                default: 0
                }
            }
        }
        return SurfaceContent(image: image, state: SurfaceState(), size: size)
    }()
}
