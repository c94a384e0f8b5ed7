import Responder
import TactileRender

/// A frame the server composed for an output, as its backend gets it to show: what changed
/// since the frame before, and the pixels, copied into the backend's own buffer.
///
/// Valid only during `OutputPresenter.present`: the next repaint draws into the same pixels.
public struct OutputFrame {
    public let output: OutputID
    /// Output pixels that differ from the previous frame. Empty when nothing changed and the
    /// frame only paces clients' frame callbacks: the backend may show nothing new, but still
    /// answers `outputPresented` when the output would have shown a frame.
    public let damage: [Rect]
    let canvas: any Canvas
    /// The pointer's cursor on this output, drawn over the composed pixels.
    let cursor: DrawItem?
    /// A client's dmabuf that is the whole frame by itself (a fullscreen, opaque,
    /// untransformed window, nothing over it but the cursor): a backend that can show it as it
    /// is may, instead of the composed pixels. Holding it holds the client's wl_buffer
    /// unreleased: a backend keeps it until another frame has replaced it on screen.
    public let scanout: Scanout?
    /// The frame's whole-frame surface asks to be shown torn (wp_tearing_control_v1 async):
    /// a backend that can show a frame between vertical blanks may, and says so in its
    /// presentation feedback (no vsync flag).
    public let torn: Bool

    init(output: OutputID, damage: [Rect], canvas: any Canvas, cursor: DrawItem?, scanout: Scanout? = nil, torn: Bool = false) {
        (self.output, self.damage, self.canvas, self.cursor, self.scanout, self.torn) = (output, damage, canvas, cursor, scanout, torn)
    }

    /// In output pixels.
    public var size: Size { canvas.size }

    /// Writes the frame's pixels inside `rects` (output pixels) into a buffer of the output's
    /// size: XRGB8888 (wl_shm's and DRM's), `stride` bytes per row; with the cursor drawn in,
    /// unless the backend shows it on a cursor plane of its own.
    public func copy(_ rects: [Rect], into pixels: UnsafeMutableRawPointer, stride: Int, withCursor: Bool = true) {
        for rect in rects {
            canvas.write(rect, into: pixels, format: .xrgb8888, size: size, stride: stride, at: Position(x: rect.x, y: rect.y),
                         overlay: withCursor ? cursor : nil)
        }
    }

    /// Writes the frame's pixels inside `rects` into a GPU buffer of the output's size that
    /// the server's renderer made a target of; false when the target is not that renderer's.
    public func draw(_ rects: [Rect], into target: any RenderTarget, withCursor: Bool = true) -> Bool {
        canvas.write(rects, into: target, overlay: withCursor ? cursor : nil)
    }

    /// Where the cursor is drawn, in output pixels; nil when there is none on this output.
    public var cursorBounds: Rect? { cursor?.bounds }

    /// Draws the cursor alone, its top-left corner at the origin, into an ARGB8888 buffer of
    /// `size` (a cursor plane's); false when there is no cursor or it does not fit.
    public func drawCursor(into pixels: UnsafeMutableRawPointer, size: Size, stride: Int) -> Bool {
        guard let cursor, cursor.bounds.width <= size.width, cursor.bounds.height <= size.height else { return false }
        PixmanCanvas.drawAlone(cursor, into: pixels, format: .argb8888, size: size, stride: stride)
        return true
    }
}

/// A client's buffer a backend may show without composition (`OutputFrame.scanout`).
public struct Scanout {
    /// Its planes, with descriptors that stay valid while the image lives.
    public let files: DmabufFiles
    /// The client's wl_buffer, released to it once nothing holds this.
    let buffer: AnyObject
}
