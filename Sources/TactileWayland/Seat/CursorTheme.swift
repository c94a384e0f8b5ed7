import CXcursor
import Glibc
import Logging
import Responder
import TactileRender

/// Cursors by name from the installed Xcursor theme (XCURSOR_THEME, else the system's
/// default; XCURSOR_SIZE, else 24 pixels), loaded with libXcursor on first use and kept.
/// A name the theme lacks falls back to Tactile's arrow, so a kiosk without any theme
/// still shows a cursor.
final class CursorTheme {
    private var loaded: [String: (content: SurfaceContent, hotspot: Position)?] = [:]
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// The cursor named `name` (an Xcursor name: `text`, `pointer`, `default`), or nil
    /// when the theme has none.
    func cursor(named name: String) -> (content: SurfaceContent, hotspot: Position)? {
        if let known = loaded[name] { return known }
        let found = Self.load(name) ?? Self.olderNames[name].flatMap(Self.load)
        if found == nil { logger.info("cursor \(name): not in the Xcursor theme; Tactile's arrow instead") }
        loaded[name] = found
        return found
    }

    /// Names newer than most themes (cursor-shape 2's), and the older cursor that looks
    /// like them (Debian 12's Adwaita has no `all-resize`).
    private static let olderNames = ["all-resize": "fleur", "dnd-ask": "copy"]

    private static func load(_ name: String) -> (content: SurfaceContent, hotspot: Position)? {
        let theme = getenv("XCURSOR_THEME").map { String(cString: $0) }
        let size = getenv("XCURSOR_SIZE").flatMap { Int32(String(cString: $0)) }.flatMap { (1...256).contains($0) ? $0 : nil } ?? 24
        guard let xcursor = XcursorLibraryLoadImage(name, theme, size) else { return nil }
        defer { XcursorImageDestroy(xcursor) }
        let width = Int(xcursor.pointee.width), height = Int(xcursor.pointee.height)
        guard width > 0, height > 0, width <= 256, height <= 256, let pixels = xcursor.pointee.pixels,
              let image = Image(size: Size(width: width, height: height), opaque: false) else { return nil }
        // Xcursor's pixels are premultiplied ARGB, pixman's a8r8g8b8.
        image.copy(from: UnsafeMutableRawPointer(pixels), format: PixelFormat.argb8888, stride: width * 4, rects: [image.bounds])
        let hotspot = Position(x: min(Int(xcursor.pointee.xhot), width - 1), y: min(Int(xcursor.pointee.yhot), height - 1))
        return (SurfaceContent(image: image, state: SurfaceState(), size: image.size), hotspot)
    }
}
