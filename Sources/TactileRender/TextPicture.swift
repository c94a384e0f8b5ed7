import Glibc
import Responder

/// Text the compositor draws itself (a kiosk's warnings, the PIN pad's keys), laid out by
/// Pango with the fonts fontconfig finds, so a message in any language and script is shaped
/// as the desktop would shape it. The result is an ordinary image: premultiplied ARGB, the
/// layout cairo's ARGB32 and pixman's a8r8g8b8 share.
///
/// Pango, cairo, HarfBuzz and fontconfig are loaded (dlopen) the first time a text is drawn:
/// linked, they cost every kiosk 2.4 MB of resident memory (26.7 against 29.2 MB, idle),
/// though most never show a word.
public enum TextPicture {
    /// `text` in `colour` (opaque ARGB), `points` high in the system's sans-serif, centred
    /// line by line and wrapped at `width` pixels; nil when nothing can be drawn (an empty
    /// text, no Pango, no font, sizes beyond what an image takes).
    public static func render(_ text: String, points: Int, colour: UInt32, bold: Bool = false, width: Int) -> Image? {
        guard !text.isEmpty, (1...400).contains(points), (1...16384).contains(width), let pango = Pango.loaded else { return nil }
        // A 1x1 surface lends the layout a cairo context to measure with.
        guard let scratch = pango.imageSurfaceCreate(Pango.argb32, 1, 1) else { return nil }
        defer { pango.surfaceDestroy(scratch) }
        guard let measuring = pango.create(scratch) else { return nil }
        defer { pango.destroy(measuring) }
        guard let layout = pango.createLayout(measuring) else { return nil }
        defer { pango.objectUnref(UnsafeMutableRawPointer(layout)) }
        guard let font = pango.fontDescriptionNew() else { return nil }
        defer { pango.fontDescriptionFree(font) }
        pango.fontDescriptionSetFamily(font, "Sans")
        pango.fontDescriptionSetWeight(font, bold ? Pango.bold : Pango.normal)
        pango.fontDescriptionSetAbsoluteSize(font, Double(points) * Double(Pango.scale))
        pango.layoutSetFontDescription(layout, font)
        pango.layoutSetWidth(layout, Int32(clamping: width) &* Pango.scale)
        pango.layoutSetWrap(layout, Pango.wrapWordChar)
        pango.layoutSetAlignment(layout, Pango.alignCenter)
        pango.layoutSetText(layout, text, -1)
        var ink = Pango.Rectangle(), logical = Pango.Rectangle()
        withUnsafeMutableBytes(of: &ink) { ink in
            withUnsafeMutableBytes(of: &logical) { logical in pango.layoutGetPixelExtents(layout, ink.baseAddress, logical.baseAddress) }
        }
        let size = Size(width: min(width, max(1, Int(logical.width))), height: max(1, Int(logical.height)))
        guard size.height <= 16384, let image = Image(size: size, opaque: false),
              image.stride == Int(pango.formatStrideForWidth(Pango.argb32, Int32(size.width)))
        else { return nil }
        memset(image.pixels, 0, image.stride * size.height)
        guard let target = pango.imageSurfaceCreateForData(image.pixels.assumingMemoryBound(to: UInt8.self), Pango.argb32,
                                                           Int32(size.width), Int32(size.height), Int32(image.stride)) else { return nil }
        defer { pango.surfaceDestroy(target) }
        guard let drawing = pango.create(target) else { return nil }
        defer { pango.destroy(drawing) }
        let channel = { (shift: UInt32) in Double((colour >> shift) & 0xff) / 255 }
        pango.setSourceRGB(drawing, channel(16), channel(8), channel(0))
        // Centred lines start at the layout's left edge plus their offset: the logical
        // rectangle's x is where the widest one starts.
        pango.moveTo(drawing, Double(-logical.x), 0)
        pango.updateLayout(drawing, layout)
        pango.showLayout(drawing, layout)
        pango.surfaceFlush(target)
        return image
    }
}

/// The calls of pangocairo (and, through its dependencies, cairo and GObject) that
/// `TextPicture` makes, found once in the library loaded on first use. Nothing links them,
/// so their few types are declared here, as the C headers have them (pango-types.h,
/// pango-font.h, pango-layout.h, cairo.h): their ABI has held since Pango 1.0 and cairo 1.0.
private struct Pango: @unchecked Sendable {
    typealias Surface = OpaquePointer
    typealias Context = OpaquePointer
    typealias Layout = OpaquePointer
    typealias Font = OpaquePointer

    /// PangoRectangle: four C ints.
    struct Rectangle {
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
    }

    /// CAIRO_FORMAT_ARGB32; PANGO_WEIGHT_NORMAL and _BOLD; PANGO_WRAP_WORD_CHAR;
    /// PANGO_ALIGN_CENTER; PANGO_SCALE (C enums are ints).
    static let argb32: Int32 = 0
    static let normal: Int32 = 400, bold: Int32 = 700
    static let wrapWordChar: Int32 = 2
    static let alignCenter: Int32 = 1
    static let scale: Int32 = 1024

    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Surface?
    let imageSurfaceCreateForData: @convention(c) (UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Surface?
    let formatStrideForWidth: @convention(c) (Int32, Int32) -> Int32
    let surfaceFlush: @convention(c) (Surface?) -> Void
    let surfaceDestroy: @convention(c) (Surface?) -> Void
    let create: @convention(c) (Surface?) -> Context?
    let destroy: @convention(c) (Context?) -> Void
    let setSourceRGB: @convention(c) (Context?, Double, Double, Double) -> Void
    let moveTo: @convention(c) (Context?, Double, Double) -> Void
    let createLayout: @convention(c) (Context?) -> Layout?
    let updateLayout: @convention(c) (Context?, Layout?) -> Void
    let showLayout: @convention(c) (Context?, Layout?) -> Void
    let objectUnref: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let fontDescriptionNew: @convention(c) () -> Font?
    let fontDescriptionFree: @convention(c) (Font?) -> Void
    let fontDescriptionSetFamily: @convention(c) (Font?, UnsafePointer<CChar>?) -> Void
    let fontDescriptionSetWeight: @convention(c) (Font?, Int32) -> Void
    let fontDescriptionSetAbsoluteSize: @convention(c) (Font?, Double) -> Void
    let layoutSetFontDescription: @convention(c) (Layout?, Font?) -> Void
    let layoutSetWidth: @convention(c) (Layout?, Int32) -> Void
    let layoutSetWrap: @convention(c) (Layout?, Int32) -> Void
    let layoutSetAlignment: @convention(c) (Layout?, Int32) -> Void
    let layoutSetText: @convention(c) (Layout?, UnsafePointer<CChar>?, Int32) -> Void
    let layoutGetPixelExtents: @convention(c) (Layout?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    /// On standard error, as the process's own words (TactileRender has no logger).
    private static func say(_ message: String) {
        let line = Array("tactile: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Debian's libpangocairo-1.0-0 (the package's Depends names it).
    static let library = "libpangocairo-1.0.so.0"

    /// Loaded on first use, once; nil (said on standard error, once) when the library or a
    /// call is missing.
    static let loaded: Pango? = {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? library
            say("the compositor's overlays show no words: cannot load \(library): \(why)")
            return nil
        }
        var missing: [String] = []
        func call<T>(_ name: String) -> T {
            guard let symbol = dlsym(handle, name) else {
                missing.append(name)
                return unsafeBitCast(UnsafeRawPointer(bitPattern: 1)!, to: T.self)
            }
            return unsafeBitCast(symbol, to: T.self)
        }
        let pango = Pango(
            imageSurfaceCreate: call("cairo_image_surface_create"),
            imageSurfaceCreateForData: call("cairo_image_surface_create_for_data"),
            formatStrideForWidth: call("cairo_format_stride_for_width"),
            surfaceFlush: call("cairo_surface_flush"),
            surfaceDestroy: call("cairo_surface_destroy"),
            create: call("cairo_create"),
            destroy: call("cairo_destroy"),
            setSourceRGB: call("cairo_set_source_rgb"),
            moveTo: call("cairo_move_to"),
            createLayout: call("pango_cairo_create_layout"),
            updateLayout: call("pango_cairo_update_layout"),
            showLayout: call("pango_cairo_show_layout"),
            objectUnref: call("g_object_unref"),
            fontDescriptionNew: call("pango_font_description_new"),
            fontDescriptionFree: call("pango_font_description_free"),
            fontDescriptionSetFamily: call("pango_font_description_set_family"),
            fontDescriptionSetWeight: call("pango_font_description_set_weight"),
            fontDescriptionSetAbsoluteSize: call("pango_font_description_set_absolute_size"),
            layoutSetFontDescription: call("pango_layout_set_font_description"),
            layoutSetWidth: call("pango_layout_set_width"),
            layoutSetWrap: call("pango_layout_set_wrap"),
            layoutSetAlignment: call("pango_layout_set_alignment"),
            layoutSetText: call("pango_layout_set_text"),
            layoutGetPixelExtents: call("pango_layout_get_pixel_extents"))
        guard missing.isEmpty else {
            say("the compositor's overlays show no words: \(library) lacks \(missing.joined(separator: ", "))")
            return nil
        }
        return pango
    }()
}
