import Responder

/// What composes output frames: pixman on the CPU, or GLES on a GPU (or Mesa's llvmpipe).
/// The server knows only this and `Canvas`; a new renderer is one more conformance.
public protocol Renderer: AnyObject {
    /// How the log and the inspector name it ("pixman", "GLES 3.2 on llvmpipe …").
    var name: String { get }
    /// Whether sampling an image through a quarter turn costs no more than copying it: then
    /// a turned output draws windows as they are, and no turned copy is made per commit.
    var turnsForFree: Bool { get }
    /// A cleared canvas of `size`; nil when the size is empty, too large, or memory runs out.
    func makeCanvas(size: Size) -> (any Canvas)?
    /// The clients' GPU buffers it samples without a copy; nil when it imports none.
    var dmabuf: DmabufSupport? { get }
    /// `attributes` as an image it draws; nil when the GPU refuses them.
    func importDmabuf(_ attributes: DmabufAttributes) -> Image?
    /// A backend's GPU buffer (a GBM buffer object a CRTC scans out) as something its
    /// canvases draw frames into (`Canvas.write(_:into:overlay:)`) without the CPU touching a
    /// pixel; nil when it draws only into memory.
    func makeTarget(_ attributes: DmabufAttributes) -> (any RenderTarget)?
}

/// A backend's GPU buffer a renderer draws frames into; kept by the backend as long as the
/// buffer, made once (`Renderer.makeTarget`), drawn into each time the buffer is shown.
public protocol RenderTarget: AnyObject {}

extension Renderer {
    /// Most renderers (pixman) read only memory they can map: no GPU buffers.
    public var dmabuf: DmabufSupport? { nil }
    public func importDmabuf(_ attributes: DmabufAttributes) -> Image? { nil }
    public func makeTarget(_ attributes: DmabufAttributes) -> (any RenderTarget)? { nil }
}

/// An output's frame, kept between repaints: composed from draw items where it is damaged,
/// and read from by the output's backend (into its own buffer) and by screenshots.
public protocol Canvas: AnyObject {
    var size: Size { get }
    /// What shows where no surface is (0xAARRGGBB; alpha ignored).
    var background: UInt32 { get set }
    /// Repaints `damage` (canvas pixels) with `items`, bottom to top. Items are clipped top
    /// down first, each losing what opaque items above it hide, so a covered pixel is never
    /// composed and the background is filled only where nothing opaque lies.
    func render(_ items: [DrawItem], damage: [Rect])
    /// Writes `rect` of the frame into memory of `format` (an output's buffer, a screenshot),
    /// its top-left corner landing `at` there, with `overlay` (the cursor) drawn over it.
    /// When the target is a client's buffer (a screenshot), the target's guard is open while
    /// it is drawn.
    func write(_ rect: Rect, into target: UnsafeMutableRawPointer, format: PixelFormat, size targetSize: Size, stride: Int,
               at origin: Position, overlay: DrawItem?)
    /// Writes `rects` of the frame into `target` (a buffer of the canvas's size, made by the
    /// canvas's renderer) at the same place, with `overlay` drawn over them, and returns once
    /// the target holds them (a page flip may follow); false when the target is not its
    /// renderer's.
    func write(_ rects: [Rect], into target: any RenderTarget, overlay: DrawItem?) -> Bool
}

extension Canvas {
    /// Canvases in memory (pixman's) make no targets, so are given none.
    public func write(_ rects: [Rect], into target: any RenderTarget, overlay: DrawItem?) -> Bool { false }

    /// The colour at a pixel, 0xffRRGGBB (0 outside the canvas); for tests and diagnostics.
    public func pixel(at p: Position) -> UInt32 {
        guard p.x >= 0, p.y >= 0, p.x < size.width, p.y < size.height else { return 0 }
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) {
            write(Rect(x: p.x, y: p.y, width: 1, height: 1), into: $0.baseAddress!, format: .xrgb8888, size: Size(width: 1, height: 1),
                  stride: 4, at: .zero, overlay: nil)
        }
        return value | 0xff00_0000
    }
}

/// `--renderer`: which renderer composes.
public enum RendererChoice: String, Sendable, CaseIterable {
    /// GLES where there is a GPU (a DRM render node, NVIDIA's devices) and EGL gives a display
    /// on it that is not a CPU rasterizer; else pixman.
    case auto
    case gles
    case pixman

    /// The renderer chosen, and a line saying which and why; throws for `gles` when EGL
    /// gives no display GLES can compose on.
    public func make() throws(GLESUnavailable) -> (renderer: any Renderer, why: String) {
        switch self {
        case .pixman:
            return (PixmanRenderer(), "renderer: pixman (--renderer pixman)")
        case .gles:
            let renderer = try GLESRenderer()
            return (renderer, "renderer: \(renderer.name) (--renderer gles)")
        case .auto:
            guard EGLDisplayConnection.mayHaveGPU else {
                return (PixmanRenderer(), "renderer: pixman (auto: no GPU: no DRM render node, no NVIDIA device)")
            }
            do {
                let renderer = try GLESRenderer()
                guard !renderer.isSoftware else {
                    return (PixmanRenderer(), "renderer: pixman (auto: EGL gives only \(renderer.device), a CPU rasterizer dearer than pixman)")
                }
                return (renderer, "renderer: \(renderer.name) (auto: EGL gave a usable display)")
            } catch {
                return (PixmanRenderer(), "renderer: pixman (auto: no GLES, \(error))")
            }
        }
    }
}
