import CEGL
import CDRM
import CGBM
import Glibc

/// Why GLES cannot compose here, as the log and `--renderer gles` say it.
public struct GLESUnavailable: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The process's EGL display, without a window system, chosen in this order:
/// 1. a GPU driving a screen, on its render node (the device platform);
/// 2. a card driving a screen, through GBM on its primary node: Mesa's software rasterizer
///    where the card has no GPU of its own (virtio-gpu without 3D), drawing straight into
///    the buffers the card scans out. Its DRM master is dropped at once, so that the DRM
///    backend, opening the card after it, becomes master. One where EGL imports no dmabufs
///    (bochs) comes last instead: it could draw neither into the card's buffers nor clients';
/// 3. a DRM device without screens: GBM on its card where it has one (vgem, where llvmpipe
///    maps clients' dumb buffers only through the primary node), else its render node;
/// 4. Mesa's surfaceless platform (llvmpipe without any DRM device);
/// 5. the first device (NVIDIA's, headless).
/// Initialized once and never terminated: an EGL display is one per process, not counted,
/// and terminating it would pull it from under every other renderer's context.
struct EGLDisplayConnection: @unchecked Sendable {
    let display: EGLDisplay
    /// Which platform gave it, for the log.
    let platform: String
    /// The DRM node clients' buffers are shared on: the render node, else the card.
    let drmNode: String?
    /// Its EGL extensions, read once.
    let extensions: Set<String>
    /// For GBM on a card: a second descriptor of it, Tactile's alone, on which a dmabuf is
    /// tried before a CPU rasterizer is given it (`cpuCanMap`).
    private let spareCard: Int32?

    private init(display: EGLDisplay, platform: String, drmNode: String?, spareCard: Int32? = nil) {
        (self.display, self.platform, self.drmNode, self.spareCard) = (display, platform, drmNode, spareCard)
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
        let clientExtensions = names(eglQueryString(nil, EGLint(EGL_EXTENSIONS)))
        let gbm = clientExtensions.contains("EGL_KHR_platform_gbm") || clientExtensions.contains("EGL_MESA_platform_gbm")
        var tried: [String] = []
        let devices = clientExtensions.contains("EGL_EXT_platform_device") ? devices(clientExtensions) : []
        func onRenderNode(_ device: EGLDeviceEXT, _ node: String) -> EGLDisplayConnection? {
            guard let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)) else {
                tried.append("\(node) did not initialize (\(errorName()))")
                return nil
            }
            // Mesa falls back to its software rasterizer on a render node whose driver it lacks
            // (virtio-gpu without 3D), which then maps no buffer through that node: a dmabuf
            // given to it is drawn through a null pointer.
            if let driver = driverName(display), ["kms_swrast", "swrast"].contains(driver) {
                eglTerminate(display)
                tried.append("\(node) has only Mesa's \(driver), which maps no buffers through a render node")
                return nil
            }
            return EGLDisplayConnection(display: display, platform: "EGL device \(node)", drmNode: node)
        }
        for (device, node, card) in devices where card.map(hasConnectors) == true {
            if let node, let display = onRenderNode(device, node) { return display }
        }
        // One that imports no dmabufs (bochs' card) is kept in case nothing better comes: it
        // could neither draw into the card's buffers nor take clients'.
        var withoutImports: EGLDisplayConnection?
        for card in gbm ? screenCards() : [] {
            guard let display = onCard(card, drmNode: card, dropMaster: true) else {
                tried.append("GBM on \(card) did not initialize (\(errorName()))")
                continue
            }
            if display.hasExtension("EGL_EXT_image_dma_buf_import") { return display }
            withoutImports = withoutImports ?? display
        }
        for (device, node, card) in devices where card.map(hasConnectors) != true {
            guard let node else { continue }
            if let card, gbm, let display = onCard(card, drmNode: node, dropMaster: false) { return display }
            if let display = onRenderNode(device, node) { return display }
        }
        if let withoutImports { return withoutImports }
        if clientExtensions.contains("EGL_MESA_platform_surfaceless") {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL surfaceless", drmNode: nil)
            }
            tried.append("the surfaceless platform did not initialize (\(errorName()))")
        }
        if let (device, _, _) = devices.first {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL device", drmNode: nil)
            }
            tried.append("the device platform did not initialize (\(errorName()))")
        }
        if tried.isEmpty { tried.append("EGL offers neither the surfaceless nor the device platform (is libegl-mesa0 installed?)") }
        throw GLESUnavailable(tried.joined(separator: "; "))
    }

    /// The name of the Mesa driver behind `display` (EGL_MESA_query_driver), where it says.
    private static func driverName(_ display: EGLDisplay) -> String? {
        typealias DriverName = @convention(c) (EGLDisplay?) -> UnsafePointer<CChar>?
        guard names(eglQueryString(display, EGLint(EGL_EXTENSIONS))).contains("EGL_MESA_query_driver"),
              let address = eglGetProcAddress("eglGetDisplayDriverName"),
              let name = unsafeBitCast(address, to: DriverName.self)(display) else { return nil }
        return String(cString: name)
    }

    /// The cards that drive screens, card0 first.
    private static func screenCards() -> [String] {
        let cards = (names(in: "/dev/dri") ?? []).filter { $0.hasPrefix("card") }.sorted { ($0.count, $0) < ($1.count, $1) }
        return cards.map { "/dev/dri/\($0)" }.filter(hasConnectors)
    }

    /// Whether the card at `path` (/dev/dri/cardN) drives screens: sysfs lists its connectors
    /// as cardN-NAME.
    private static func hasConnectors(_ path: String) -> Bool {
        let card = String(path.split(separator: "/").last ?? "")
        guard !card.isEmpty, let names = names(in: "/sys/class/drm") else { return true }
        return names.contains { $0.hasPrefix(card + "-") }
    }

    /// A GBM display on `card`, kept open for the process; nil where it does not initialize.
    /// `dropMaster`: the card drives screens, which the DRM backend must be master of.
    private static func onCard(_ card: String, drmNode: String, dropMaster: Bool) -> EGLDisplayConnection? {
        let fd = Glibc.open(card, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        // Opened while `fd` is still master, so never master itself.
        let spare = Glibc.open(card, O_RDWR | O_CLOEXEC)
        if dropMaster { _ = drmDropMaster(fd) }
        guard let device = gbm_create_device(fd),
              let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), nil)) else {
            // The GBM device (if any) is left: destroying it unloads a driver EGL may still hold.
            close(fd)
            if spare >= 0 { close(spare) }
            return nil
        }
        return EGLDisplayConnection(display: display, platform: "EGL GBM \(card)", drmNode: drmNode, spareCard: spare >= 0 ? spare : nil)
    }

    /// Whether a CPU rasterizer on this display's card can map the dmabuf `fd`. Mesa's
    /// (llvmpipe through GBM) maps a buffer through the card's dumb-buffer mapping, which the
    /// kernel refuses for a buffer of another device; given one anyway it draws through a null
    /// pointer. So the buffer is imported on the spare descriptor and mapped there first.
    /// True for displays a GPU draws on.
    func cpuCanMap(_ fd: Int32) -> Bool {
        guard let spareCard else { return true }
        var handle: UInt32 = 0
        guard drmPrimeFDToHandle(spareCard, fd, &handle) == 0 else { return false }
        defer { _ = drmCloseBufferHandle(spareCard, handle) }
        var offset: UInt64 = 0
        return drmModeMapDumbBuffer(spareCard, handle, &offset) == 0
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
    private static func devices(_ clientExtensions: Set<String>) -> [(EGLDeviceEXT, String?, String?)] {
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
