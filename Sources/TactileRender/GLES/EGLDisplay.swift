import CEGL
import Glibc

/// Why GLES cannot compose here, as the log and `--renderer gles` say it.
public struct GLESUnavailable: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The process's EGL display, without a window system: a DRM device's render node through
/// the device platform (a GPU's), whose memory clients' dmabufs live in, or, for a device
/// without screens (vgem, where Mesa's llvmpipe renders), GBM on its card; else Mesa's
/// surfaceless platform (llvmpipe when there is no GPU); else the first device (NVIDIA's,
/// headless). Initialized once and never terminated: an EGL
/// display is one per process, not counted, and terminating it would pull it from under
/// every other renderer's context.
struct EGLDisplayConnection: @unchecked Sendable {
    let display: EGLDisplay
    /// Which platform gave it, for the log.
    let platform: String
    /// The DRM render node it renders on, when it says.
    let renderNode: String?
    /// Its EGL extensions, read once.
    let extensions: Set<String>

    private init(display: EGLDisplay, platform: String, renderNode: String?) {
        (self.display, self.platform, self.renderNode) = (display, platform, renderNode)
        extensions = Self.names(eglQueryString(display, EGLint(EGL_EXTENSIONS)))
    }

    /// An extension string's names.
    static func names(_ list: UnsafePointer<CChar>?) -> Set<String> {
        Set((list.map { String(cString: $0) } ?? "").split(separator: " ").map(String.init))
    }

    static let shared: Result<EGLDisplayConnection, GLESUnavailable> = {
        do throws(GLESUnavailable) { return .success(try open()) } catch { return .failure(error) }
    }()

    private static func open() throws(GLESUnavailable) -> EGLDisplayConnection {
        let clientExtensions = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        var tried: [String] = []
        let devices = clientExtensions.contains("EGL_EXT_platform_device") ? devices() : []
        for (device, node, card) in devices {
            guard let node else { continue }
            // A CPU rasterizer on a DRM device without a display (llvmpipe on vgem) maps
            // clients' dumb buffers only through the card's primary node: GBM there. A card
            // with screens is never opened: its first opener becomes DRM master, which the
            // DRM backend must be. Everything else renders on its render node.
            if let card, !Self.hasConnectors(card), clientExtensions.contains("EGL_KHR_platform_gbm") || clientExtensions.contains("EGL_MESA_platform_gbm"),
               let display = onCard(card, renderNode: node) {
                return display
            }
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL device \(node)", renderNode: node)
            }
            tried.append("\(node) did not initialize (\(errorName()))")
        }
        if clientExtensions.contains("EGL_MESA_platform_surfaceless") {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL surfaceless", renderNode: nil)
            }
            tried.append("the surfaceless platform did not initialize (\(errorName()))")
        }
        if let (device, _, _) = devices.first {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL device", renderNode: nil)
            }
            tried.append("the device platform did not initialize (\(errorName()))")
        }
        if tried.isEmpty { tried.append("EGL offers neither the surfaceless nor the device platform (is libegl-mesa0 installed?)") }
        throw GLESUnavailable(tried.joined(separator: "; "))
    }

    /// Whether the card at `path` (/dev/dri/cardN) drives screens: sysfs lists its connectors
    /// as cardN-NAME.
    private static func hasConnectors(_ path: String) -> Bool {
        let card = String(path.split(separator: "/").last ?? "")
        guard !card.isEmpty, let names = names(in: "/sys/class/drm") else { return true }
        return names.contains { $0.hasPrefix(card + "-") }
    }

    /// A GBM display on `card`, kept open for the process; nil where it does not initialize.
    private static func onCard(_ card: String, renderNode: String) -> EGLDisplayConnection? {
        let fd = Glibc.open(card, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let device = gbm_create_device(fd) else {
            close(fd)
            return nil
        }
        guard let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), nil)) else {
            gbm_device_destroy(device)
            close(fd)
            return nil
        }
        return EGLDisplayConnection(display: display, platform: "EGL GBM \(card)", renderNode: renderNode)
    }

    /// Whether the machine may have a GPU: a DRM render node, or NVIDIA's device files. Read
    /// from /dev, not asked of EGL, so `--renderer auto` on a machine without one loads no
    /// driver (llvmpipe's LLVM would cost an idle kiosk some 60 MB), and so that Mesa is never
    /// asked for its devices without then initializing a display: Mesa 22.3 corrupts its heap
    /// at exit after that (a `tactile serve` stopped by SIGTERM aborted in 5 runs of 8).
    static var mayHaveGPU: Bool {
        access("/dev/nvidiactl", F_OK) == 0 || names(in: "/dev/dri")?.contains { $0.hasPrefix("renderD") } == true
    }

    /// The names in a directory; nil when it cannot be read.
    private static func names(in path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }

    /// EGL's devices, each with its DRM render node and card where it has them.
    private static func devices() -> [(EGLDeviceEXT, String?, String?)] {
        let clientExtensions = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        guard clientExtensions.contains("EGL_EXT_device_enumeration") || clientExtensions.contains("EGL_EXT_device_base") else { return [] }
        typealias QueryDevices = @convention(c) (EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
        typealias QueryString = @convention(c) (EGLDeviceEXT?, EGLint) -> UnsafePointer<CChar>?
        guard let queryAddress = eglGetProcAddress("eglQueryDevicesEXT"), let stringAddress = eglGetProcAddress("eglQueryDeviceStringEXT") else { return [] }
        let query = unsafeBitCast(queryAddress, to: QueryDevices.self), string = unsafeBitCast(stringAddress, to: QueryString.self)
        var found = [EGLDeviceEXT?](repeating: nil, count: 16)
        var count: EGLint = 0
        guard query(EGLint(found.count), &found, &count) == EGL_TRUE else { return [] }
        return found.prefix(Int(count)).compactMap { device in
            guard let device else { return nil }
            let extensions = string(device, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
            let node = extensions.contains("EGL_EXT_device_drm_render_node") ? string(device, EGLint(EGL_DRM_RENDER_NODE_FILE_EXT)).map { String(cString: $0) } : nil
            let card = extensions.contains("EGL_EXT_device_drm ") || extensions.hasSuffix("EGL_EXT_device_drm")
                ? string(device, EGLint(EGL_DRM_DEVICE_FILE_EXT)).map { String(cString: $0) } : nil
            return (device, node, card)
        }
    }

    private static func initialized(_ display: EGLDisplay?) -> EGLDisplay? {
        guard let display else { return nil }
        var major: EGLint = 0, minor: EGLint = 0
        return eglInitialize(display, &major, &minor) == EGL_TRUE ? display : nil
    }

    /// The last EGL error as its name's number, for a log line.
    static func errorName() -> String { "EGL error 0x\(String(eglGetError(), radix: 16))" }

    func hasExtension(_ name: String) -> Bool { extensions.contains(name) }
}
