import CEGL
import Glibc

/// Clients' dmabufs as EGL images, sampled by the GPU where they lie: what the renderer
/// offers (EGL's import queries), and each import. Only where EGL imports dmabufs
/// (EGL_EXT_image_dma_buf_import) and knows the device they live on: a GPU's render node,
/// or Mesa's llvmpipe on one (vgem's, in the QEMU guest); not llvmpipe alone.
struct GLESDmabufImporter {
    private typealias CreateImage = @convention(c) (EGLDisplay?, EGLContext?, EGLenum, EGLClientBuffer?, UnsafePointer<EGLint>?) -> EGLImageKHR?
    private typealias DestroyImage = @convention(c) (EGLDisplay?, EGLImageKHR?) -> EGLBoolean
    private typealias TargetTexture = @convention(c) (GLenum, GLeglImageOES?) -> Void
    private typealias QueryFormats = @convention(c) (EGLDisplay?, EGLint, UnsafeMutablePointer<EGLint>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    private typealias QueryModifiers = @convention(c) (EGLDisplay?, EGLint, EGLint, UnsafeMutablePointer<EGLuint64KHR>?, UnsafeMutablePointer<EGLBoolean>?,
                                                       UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    private typealias QueryDisplayAttribute = @convention(c) (EGLDisplay?, EGLint, UnsafeMutablePointer<EGLAttrib>?) -> EGLBoolean
    private typealias QueryDeviceString = @convention(c) (EGLDeviceEXT?, EGLint) -> UnsafePointer<CChar>?

    private let egl: EGLDisplayConnection
    /// The renderer maps buffers with the CPU (llvmpipe): each is tried first (`cpuCanMap`).
    private let cpuMaps: Bool
    private let createImage: CreateImage
    private let destroyImage: DestroyImage
    private let targetTexture: TargetTexture
    let support: DmabufSupport

    /// Nil where EGL imports no dmabufs, or says nothing of its device.
    init?(egl: EGLDisplayConnection, glExtensions: Set<String>, cpuMaps: Bool) {
        func function<T>(_ name: String, _: T.Type) -> T? { eglGetProcAddress(name).map { unsafeBitCast($0, to: T.self) } }
        let display = egl.display
        guard egl.hasExtension("EGL_EXT_image_dma_buf_import"), egl.hasExtension("EGL_EXT_image_dma_buf_import_modifiers"),
              glExtensions.contains("GL_OES_EGL_image"),
              let createImage = function("eglCreateImageKHR", CreateImage.self), let destroyImage = function("eglDestroyImageKHR", DestroyImage.self),
              let targetTexture = function("glEGLImageTargetTexture2DOES", TargetTexture.self),
              let queryFormats = function("eglQueryDmaBufFormatsEXT", QueryFormats.self),
              let queryModifiers = function("eglQueryDmaBufModifiersEXT", QueryModifiers.self),
              let device = Self.device(egl.drmNode) ?? Self.device(of: display, function("eglQueryDisplayAttribEXT", QueryDisplayAttribute.self),
                                                                  function("eglQueryDeviceStringEXT", QueryDeviceString.self))
        else { return nil }
        var count: EGLint = 0
        guard queryFormats(display, 0, nil, &count) == EGL_TRUE, count > 0 else { return nil }
        var codes = [EGLint](repeating: 0, count: Int(count))
        _ = queryFormats(display, count, &codes, &count)
        var formats: [DmabufFormat] = []
        for code in codes.prefix(Int(count)) {
            let format = UInt32(bitPattern: code)
            // Every format takes the driver's implied layout; then the modifiers it samples as
            // plain 2D textures (external-only ones need a sampler Tactile's shaders lack).
            formats.append(DmabufFormat(format: format, modifier: DmabufFormat.implicitModifier))
            var modifierCount: EGLint = 0
            guard queryModifiers(display, code, 0, nil, nil, &modifierCount) == EGL_TRUE, modifierCount > 0 else { continue }
            var modifiers = [EGLuint64KHR](repeating: 0, count: Int(modifierCount))
            var externalOnly = [EGLBoolean](repeating: 0, count: Int(modifierCount))
            _ = queryModifiers(display, code, modifierCount, &modifiers, &externalOnly, &modifierCount)
            for (modifier, external) in zip(modifiers, externalOnly).prefix(Int(modifierCount)) where external == EGL_FALSE {
                formats.append(DmabufFormat(format: format, modifier: modifier))
            }
        }
        self.egl = egl
        self.cpuMaps = cpuMaps
        self.createImage = createImage
        self.destroyImage = destroyImage
        self.targetTexture = targetTexture
        support = DmabufSupport(formats: formats, device: device)
    }

    private static func device(_ path: String?) -> UInt64? {
        var info = stat()
        guard let path, stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_rdev)
    }

    /// The dev_t of the render node (else the card) EGL's display reads from.
    private static func device(of display: EGLDisplay, _ queryDisplay: QueryDisplayAttribute?, _ queryString: QueryDeviceString?) -> UInt64? {
        guard let queryDisplay, let queryString else { return nil }
        var device: EGLAttrib = 0
        guard queryDisplay(display, EGLint(EGL_DEVICE_EXT), &device) == EGL_TRUE, device != 0 else { return nil }
        let handle = EGLDeviceEXT(bitPattern: device)
        return [EGL_DRM_RENDER_NODE_FILE_EXT, EGL_DRM_DEVICE_FILE_EXT].lazy.compactMap { name in
            queryString(handle, EGLint(name)).flatMap { Self.device(String(cString: $0)) }
        }.first
    }

    /// The buffer as an EGL image; nil when EGL refuses it (a format, modifier or layout the
    /// GPU cannot sample, a descriptor that is no dmabuf), or when a CPU rasterizer could not
    /// map it (another device's buffer, for llvmpipe on a card).
    func importImage(_ attributes: DmabufAttributes) -> EGLImageKHR? {
        if cpuMaps, !attributes.planes.allSatisfy({ egl.cpuCanMap($0.fd) }) { return nil }
        var list: [EGLint] = [EGL_WIDTH, attributes.width, EGL_HEIGHT, attributes.height,
                              EGL_LINUX_DRM_FOURCC_EXT, EGLint(bitPattern: attributes.format)]
        let keys: [(fd: Int32, offset: Int32, pitch: Int32, low: Int32, high: Int32)] = [
            (EGL_DMA_BUF_PLANE0_FD_EXT, EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGL_DMA_BUF_PLANE0_PITCH_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT),
            (EGL_DMA_BUF_PLANE1_FD_EXT, EGL_DMA_BUF_PLANE1_OFFSET_EXT, EGL_DMA_BUF_PLANE1_PITCH_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE1_MODIFIER_HI_EXT),
            (EGL_DMA_BUF_PLANE2_FD_EXT, EGL_DMA_BUF_PLANE2_OFFSET_EXT, EGL_DMA_BUF_PLANE2_PITCH_EXT, EGL_DMA_BUF_PLANE2_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE2_MODIFIER_HI_EXT),
            (EGL_DMA_BUF_PLANE3_FD_EXT, EGL_DMA_BUF_PLANE3_OFFSET_EXT, EGL_DMA_BUF_PLANE3_PITCH_EXT, EGL_DMA_BUF_PLANE3_MODIFIER_LO_EXT, EGL_DMA_BUF_PLANE3_MODIFIER_HI_EXT),
        ]
        for (plane, key) in zip(attributes.planes, keys) {
            list += [key.fd, plane.fd, key.offset, EGLint(bitPattern: plane.offset), key.pitch, EGLint(bitPattern: plane.stride)]
            if attributes.modifier != DmabufFormat.implicitModifier {
                list += [key.low, EGLint(bitPattern: UInt32(truncatingIfNeeded: attributes.modifier)),
                         key.high, EGLint(bitPattern: UInt32(truncatingIfNeeded: attributes.modifier >> 32))]
            }
        }
        list.append(EGL_NONE)
        return createImage(egl.display, nil, EGLenum(EGL_LINUX_DMA_BUF_EXT), nil, list)
    }

    func destroy(_ image: EGLImageKHR) { _ = destroyImage(egl.display, image) }

    /// Makes the bound GL_TEXTURE_2D sample `image`.
    func bindTexture(to image: EGLImageKHR) { targetTexture(GLenum(GL_TEXTURE_2D), image) }
}

/// A client's dmabuf imported by a GLES renderer: the picture an `Image` stands for, released
/// with it.
final class GLESDmabufImage {
    let image: EGLImageKHR
    private let renderer: GLESRenderer

    init(image: EGLImageKHR, renderer: GLESRenderer) {
        self.image = image
        self.renderer = renderer
    }

    deinit { renderer.destroyImage(image) }
}
