import CEGL
import Responder

/// The GPU's renderer: frames composed by GLES 3 into textures of the GPU's, clients' images
/// sampled from textures uploaded where they changed, and read back only where a backend or a
/// screenshot asks for pixels.
///
/// Its context is made current for each call and released after, so a renderer may be used
/// from any one thread at a time (the server's loop; a test's task, wherever it resumes).
public final class GLESRenderer: Renderer {
    public let name: String
    /// GL_RENDERER: "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H100 …/PCIe/SSE2".
    public let device: String
    public var turnsForFree: Bool { true }
    /// Mesa's CPU rasterizers: usable, but dearer than pixman for what Tactile draws.
    public var isSoftware: Bool { Self.isSoftware(device) }
    private static func isSoftware(_ device: String) -> Bool { ["llvmpipe", "softpipe", "swrast"].contains { device.contains($0) } }

    private let egl: EGLDisplayConnection
    private let context: EGLContext
    let programs: [GLESProgram.Sampling: GLESProgram]
    let textures: GLESTextures
    /// Clients' dmabufs, where EGL imports them.
    private let importer: GLESDmabufImporter?

    public init() throws(GLESUnavailable) {
        let egl = try EGLDisplayConnection.shared.get()
        guard egl.hasExtension("EGL_KHR_surfaceless_context"), egl.hasExtension("EGL_KHR_no_config_context") || egl.hasExtension("EGL_MESA_configless_context")
        else { throw GLESUnavailable("\(egl.platform) lacks surfaceless or config-less contexts") }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else { throw GLESUnavailable("EGL has no GLES (\(EGLDisplayConnection.errorName()))") }
        let attributes: [EGLint] = [EGLint(EGL_CONTEXT_MAJOR_VERSION), 3, EGLint(EGL_NONE)]
        guard let context = eglCreateContext(egl.display, nil, nil, attributes) else {
            throw GLESUnavailable("no GLES 3 context on \(egl.platform) (\(EGLDisplayConnection.errorName()))")
        }
        guard eglMakeCurrent(egl.display, nil, nil, context) == EGL_TRUE else {
            eglDestroyContext(egl.display, context)
            throw GLESUnavailable("the GLES context cannot be made current (\(EGLDisplayConnection.errorName()))")
        }
        defer { eglMakeCurrent(egl.display, nil, nil, nil) }
        let extensions = EGLDisplayConnection.names(UnsafeRawPointer(glGetString(GLenum(GL_EXTENSIONS))).map { $0.assumingMemoryBound(to: CChar.self) })
        let version = String(cString: glGetString(GLenum(GL_VERSION)))
        device = String(cString: glGetString(GLenum(GL_RENDERER)))
        // BGRA textures and readbacks: wl_shm's two formats and the backends' buffers, uploaded
        // and read as they lie in memory.
        for needed in ["GL_EXT_texture_format_BGRA8888", "GL_EXT_read_format_bgra"] where !extensions.contains(needed) {
            eglDestroyContext(egl.display, context)
            throw GLESUnavailable("\(device) lacks \(needed)")
        }
        var programs: [GLESProgram.Sampling: GLESProgram] = [:]
        do {
            for sampling in GLESProgram.Sampling.allCases { programs[sampling] = try GLESProgram(sampling) }
        } catch {
            for program in programs.values { program.delete() }
            eglDestroyContext(egl.display, context)
            throw error
        }
        self.programs = programs
        importer = GLESDmabufImporter(egl: egl, glExtensions: extensions, cpuMaps: Self.isSoftware(device))
        textures = GLESTextures(importer: importer)
        self.egl = egl
        self.context = context
        name = "GLES (\(version) on \(device), \(egl.platform))"
    }

    deinit {
        current {
            textures.removeAll()
            for program in programs.values { program.delete() }
        }
        eglDestroyContext(egl.display, context)
    }

    public func makeCanvas(size: Size) -> (any Canvas)? {
        guard size.width > 0, size.height > 0, size.width <= Image.maximumSide, size.height <= Image.maximumSide else { return nil }
        return current { GLESCanvas(renderer: self, size: size) }
    }

    public var dmabuf: DmabufSupport? { importer?.support }

    public func importDmabuf(_ attributes: DmabufAttributes) -> Image? {
        imported(attributes) { image, _ in
            Image(external: GLESDmabufImage(image: image, renderer: self), size: Size(width: Int(attributes.width), height: Int(attributes.height)),
                  opaque: attributes.isOpaque, dmabuf: DmabufFiles(duplicating: attributes))
        }
    }

    /// A scanout buffer, imported as clients' dmabufs are, that canvases draw frames into.
    public func makeTarget(_ attributes: DmabufAttributes) -> (any RenderTarget)? {
        imported(attributes) { image, importer in
            GLESTarget(image: image, size: Size(width: Int(attributes.width), height: Int(attributes.height)), renderer: self, importer: importer)
        }
    }

    /// `attributes` as an EGL image, made into what `wrap` makes of it with the context
    /// current; nil for sizes Tactile refuses and buffers EGL refuses.
    private func imported<T>(_ attributes: DmabufAttributes, _ wrap: (EGLImageKHR, GLESDmabufImporter) -> T?) -> T? {
        guard let importer, attributes.width > 0, attributes.height > 0, attributes.width <= Image.maximumSide, attributes.height <= Image.maximumSide
        else { return nil }
        return current {
            guard let image = importer.importImage(attributes) else { return nil }
            return wrap(image, importer)
        }
    }

    /// An imported dmabuf nothing shows any more.
    func destroyImage(_ image: EGLImageKHR) {
        current { importer?.destroy(image) }
    }

    /// Runs `body` with the context current on this thread, and releases it after.
    func current<R>(_ body: () -> R) -> R {
        eglMakeCurrent(egl.display, nil, nil, context)
        defer { eglMakeCurrent(egl.display, nil, nil, nil) }
        return body()
    }
}
