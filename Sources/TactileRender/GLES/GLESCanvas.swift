import CEGL
import CPixman
import Responder

/// A frame in a texture of the GPU's, composed by GLES with the same clipping and the same
/// operators as `PixmanCanvas`: each pixel a copy where pixman copies and a blend
/// (premultiplied OVER) where pixman blends, so the two agree pixel for pixel, up to
/// rounding where an image is scaled.
final class GLESCanvas: Canvas {
    /// Held strongly: the renderer's context lives as long as any canvas of it.
    private let renderer: GLESRenderer
    let size: Size
    var background: UInt32 = 0xff20_2020
    private var texture: GLuint = 0
    private var framebuffer: GLuint = 0

    /// With the context current.
    init?(renderer: GLESRenderer, size: Size) {
        self.renderer = renderer
        self.size = size
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        let layout = GLenum(GL_BGRA_EXT)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(layout), GLsizei(size.width), GLsizei(size.height), 0, layout, GLenum(GL_UNSIGNED_BYTE), nil)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            deleteObjects()
            return nil
        }
        // Black and opaque, as a new pixman canvas is; alpha stays 1 from here on (every
        // draw masks it), so a read frame is XRGB with X = 0xff.
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    deinit { renderer.current { deleteObjects() } }

    private func deleteObjects() {
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteTextures(1, &texture)
    }

    func render(_ items: [DrawItem], damage: [Rect]) {
        let bounds = Rect(size: size)
        var uncovered = Region()
        for rect in damage { uncovered.add(rect.intersection(bounds)) }
        guard !uncovered.isEmpty else { return }
        // Top down: each item's clip is what is damaged and not hidden by opaque items above.
        var clips = [Region](repeating: .empty, count: items.count)
        for index in items.indices.reversed() {
            clips[index] = uncovered.intersection(items[index].bounds)
            for rect in items[index].opaque { uncovered.subtract(rect) }
        }
        renderer.current {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_FALSE))
            fill(uncovered)
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
            for (item, clip) in zip(items, clips) where !clip.isEmpty {
                draw(item, clip: clip)
            }
            renderer.textures.sweep()
            glFlush()
        }
    }

    private func fill(_ region: Region) {
        guard !region.isEmpty else { return }
        let channel = { (shift: UInt32) in Float((self.background >> shift) & 0xff) / 255 }
        glClearColor(channel(16), channel(8), channel(0), 1)
        glEnable(GLenum(GL_SCISSOR_TEST))
        for rect in region.rects {
            glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// `item` inside `clip`, copied where `DrawItem.copying` says and blended elsewhere, as
    /// pixman does.
    private func draw(_ item: DrawItem, clip: Region) {
        guard let texture = renderer.textures.texture(for: item.image) else { return }
        let map: Affine
        var exact = true
        switch item.sampling {
        case .translated(let origin): map = .translation(Double(-origin.x), Double(-origin.y))
        case .transformed(let transform): (map, exact) = (transform, transform.isPixelExact)
        }
        var copied = Region.empty, blended = clip
        switch item.copying {
        case .everything: (copied, blended) = (clip, .empty)
        case .nothing: break
        case .opaqueRegion:
            for rect in item.opaque { for piece in clip.intersection(rect).rects { copied.add(piece) } }
            for rect in item.opaque { blended.subtract(rect) }
        }
        sample(texture, through: map, exact: exact, size: item.image.size, opaque: item.image.isOpaque, wide: GLESTextures.isWide(item.image.format),
               opacity: item.opacity, copied: copied, blended: blended)
    }

    /// Draws `texture` (an image of `size`) where `copied` and `blended` say, each canvas
    /// pixel sampling the image at `map` of it.
    private func sample(_ texture: GLuint, through map: Affine, exact: Bool, size imageSize: Size, opaque: Bool, wide: Bool, opacity: Double = 1,
                        copied: Region, blended: Region) {
        let program = renderer.programs[GLESProgram.Sampling(bilinear: !exact, wide: wide)]!
        glUseProgram(program.id)
        glUniform2f(program.canvasSize, Float(size.width), Float(size.height))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        // pixman's fixed-point map (16.16), so both sample the same points.
        let fixed = exact ? map : map.roundedToFixed
        glUniform3f(program.mapX, Float(fixed.a), Float(fixed.b), Float(fixed.c))
        glUniform3f(program.mapY, Float(fixed.d), Float(fixed.e), Float(fixed.f))
        glUniform2f(program.imageSize, Float(imageSize.width), Float(imageSize.height))
        glUniform1i(program.opaque, opaque ? 1 : 0)
        glUniform1f(program.alpha, Float(opacity))
        if !copied.isEmpty {
            glDisable(GLenum(GL_BLEND))
            drawQuads(copied, program: program)
        }
        if !blended.isEmpty {
            glEnable(GLenum(GL_BLEND))
            drawQuads(blended, program: program)
        }
    }

    /// Two triangles per rectangle of `region`, in canvas pixels.
    private func drawQuads(_ region: Region, program: GLESProgram) {
        var vertices: [Float] = []
        vertices.reserveCapacity(region.rectCount * 12)
        for r in region.rects {
            let (x0, y0, x1, y1) = (Float(r.x), Float(r.y), Float(r.maxX), Float(r.maxY))
            vertices += [x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1]
        }
        glEnableVertexAttribArray(program.position)
        vertices.withUnsafeBufferPointer {
            glVertexAttribPointer(program.position, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, $0.baseAddress)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(vertices.count / 2))
        }
        glDisableVertexAttribArray(program.position)
    }

    /// The frame's texture drawn 1:1 (a copy, GPU to GPU; a blit between the two formats
    /// is not every driver's), then the overlay drawn as any item; finished before
    /// it returns, since the backend flips to the target next (llvmpipe finishes here anyway;
    /// a fence the page flip waits on would let a GPU's CPU go on, and is not done).
    func write(_ rects: [Rect], into target: any RenderTarget, overlay: DrawItem?) -> Bool {
        guard let target = target as? GLESTarget, target.size == size else { return false }
        let bounds = Rect(size: size)
        var region = Region()
        for rect in rects { region.add(rect.intersection(bounds)) }
        guard !region.isEmpty else { return true }
        renderer.current {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebuffer)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_FALSE))
            sample(texture, through: .identity, exact: true, size: size, opaque: true, wide: false, copied: region, blended: .empty)
            if let overlay {
                glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
                draw(overlay, clip: region.intersection(overlay.bounds))
            }
            glFinish()
        }
        return true
    }

    func write(_ rect: Rect, into target: UnsafeMutableRawPointer, format: PixelFormat, size targetSize: Size, stride: Int,
               at origin: Position, overlay: DrawItem?) {
        let (dx, dy) = (origin.x - rect.x, origin.y - rect.y)
        // What lies both on the canvas and, once shifted, inside the target: pixman clips
        // the same way.
        let landing = rect.intersection(Rect(size: size)).offset(by: Position(x: dx, y: dy)).intersection(Rect(size: targetSize))
        guard !landing.isEmpty else { return }
        let r = landing.offset(by: Position(x: -dx, y: -dy))
        let inPlace = (format == .xrgb8888 || format == .argb8888) && stride % 4 == 0
        renderer.current {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            if inPlace {
                glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(stride / 4))
                glReadPixels(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height), GLenum(GL_BGRA_EXT), GLenum(GL_UNSIGNED_BYTE),
                             target + landing.y * stride + landing.x * 4)
                glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
            }
        }
        guard let destination = pixman_image_create_bits_no_clear(
            format.pixman, Int32(targetSize.width), Int32(targetSize.height), target.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(destination) }
        if !inPlace {
            // Read as XRGB8888, then converted into the target's format by pixman.
            guard let read = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(r.width), Int32(r.height), nil, 0) else { return }
            defer { pixman_image_unref(read) }
            renderer.current {
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
                glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), pixman_image_get_stride(read) / 4)
                glReadPixels(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height), GLenum(GL_BGRA_EXT), GLenum(GL_UNSIGNED_BYTE),
                             pixman_image_get_data(read))
                glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
            }
            pixman_image_composite32(PIXMAN_OP_SRC, read, nil, destination, 0, 0, 0, 0, Int32(landing.x), Int32(landing.y),
                                     Int32(r.width), Int32(r.height))
        }
        if let overlay { PixmanCanvas.draw(overlay, over: r, shiftedBy: Position(x: dx, y: dy), on: destination) }
    }
}
