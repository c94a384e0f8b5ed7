import CPango
import Glibc
import Responder

/// Text the compositor draws itself (a kiosk's warnings, the PIN pad's digits), laid out by
/// Pango with the fonts fontconfig finds, so a message in any language and script is shaped
/// as the desktop would shape it. The result is an ordinary image: premultiplied ARGB, the
/// layout cairo's ARGB32 and pixman's a8r8g8b8 share.
public enum TextPicture {
    /// `text` in `colour` (opaque ARGB), `points` high in the system's sans-serif, centred
    /// line by line and wrapped at `width` pixels; nil when nothing can be drawn (an empty
    /// text, no font, sizes beyond what an image takes).
    public static func render(_ text: String, points: Int, colour: UInt32, bold: Bool = false, width: Int) -> Image? {
        guard !text.isEmpty, (1...400).contains(points), (1...16384).contains(width) else { return nil }
        // A 1x1 surface lends the layout a cairo context to measure with.
        guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return nil }
        defer { cairo_surface_destroy(scratch) }
        guard let measuring = cairo_create(scratch) else { return nil }
        defer { cairo_destroy(measuring) }
        guard let layout = pango_cairo_create_layout(measuring) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_new()
        defer { pango_font_description_free(font) }
        pango_font_description_set_family(font, "Sans")
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(font, Double(points) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, Int32(clamping: width) &* PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let size = Size(width: min(width, max(1, Int(logical.width))), height: max(1, Int(logical.height)))
        guard size.height <= 16384, let image = Image(size: size, opaque: false),
              image.stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(size.width)))
        else { return nil }
        memset(image.pixels, 0, image.stride * size.height)
        guard let target = cairo_image_surface_create_for_data(image.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                               Int32(size.width), Int32(size.height), Int32(image.stride)) else { return nil }
        defer { cairo_surface_destroy(target) }
        guard let drawing = cairo_create(target) else { return nil }
        defer { cairo_destroy(drawing) }
        let channel = { (shift: UInt32) in Double((colour >> shift) & 0xff) / 255 }
        cairo_set_source_rgb(drawing, channel(16), channel(8), channel(0))
        // Centred lines start at the layout's left edge plus their offset: the logical
        // rectangle's x is where the widest one starts.
        cairo_move_to(drawing, Double(-logical.x), 0)
        pango_cairo_update_layout(drawing, layout)
        pango_cairo_show_layout(drawing, layout)
        cairo_surface_flush(target)
        return image
    }
}
