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
    let canvas: Canvas
    /// The pointer's cursor on this output, drawn over the composed pixels.
    let cursor: DrawItem?

    /// In output pixels.
    public var size: Size { canvas.size }

    /// Writes the frame's pixels inside `rects` (output pixels) into a buffer of the output's
    /// size: XRGB8888 (wl_shm's and DRM's), `stride` bytes per row.
    public func copy(_ rects: [Rect], into pixels: UnsafeMutableRawPointer, stride: Int) {
        for rect in rects {
            canvas.write(rect, into: pixels, format: .xrgb8888, size: size, stride: stride, at: Position(x: rect.x, y: rect.y), overlay: cursor)
        }
    }
}
