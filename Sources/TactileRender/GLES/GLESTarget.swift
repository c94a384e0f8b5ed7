import CEGL
import Responder

/// A backend's scanout buffer as a GLES framebuffer: the dmabuf imported as an EGL image,
/// bound to a texture, attached to a framebuffer object that canvases draw their frames into.
final class GLESTarget: RenderTarget {
    let size: Size
    private let renderer: GLESRenderer
    private let image: EGLImageKHR
    private var texture: GLuint = 0
    private(set) var framebuffer: GLuint = 0

    /// With the context current; nil when GLES cannot draw into the image (a format it
    /// samples but does not render to).
    init?(image: EGLImageKHR, size: Size, renderer: GLESRenderer, importer: GLESDmabufImporter) {
        (self.image, self.size, self.renderer) = (image, size, renderer)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        importer.bindTexture(to: image)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            deleteObjects()
            importer.destroy(image)
            return nil
        }
    }

    private func deleteObjects() {
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteTextures(1, &texture)
    }

    deinit {
        renderer.current { deleteObjects() }
        renderer.destroyImage(image)
    }
}
