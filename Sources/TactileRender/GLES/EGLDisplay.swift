import CEGL

/// Why GLES cannot compose here, as the log and `--renderer gles` say it.
public struct GLESUnavailable: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The process's EGL display, without a window system: Mesa's surfaceless platform (llvmpipe
/// when there is no GPU), else the device platform (NVIDIA's, headless). Initialized once and
/// never terminated: an EGL display is one per process, not counted, and terminating it
/// would pull it from under every other renderer's context.
struct EGLDisplayConnection: @unchecked Sendable {
    let display: EGLDisplay
    /// Which platform gave it, for the log.
    let platform: String

    static let shared: Result<EGLDisplayConnection, GLESUnavailable> = {
        do throws(GLESUnavailable) { return .success(try open()) } catch { return .failure(error) }
    }()

    private static func open() throws(GLESUnavailable) -> EGLDisplayConnection {
        let clientExtensions = eglQueryString(nil, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        var tried: [String] = []
        if clientExtensions.contains("EGL_MESA_platform_surfaceless") {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL surfaceless")
            }
            tried.append("the surfaceless platform did not initialize (\(errorName()))")
        }
        if clientExtensions.contains("EGL_EXT_platform_device"), let device = firstDevice() {
            if let display = initialized(eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)) {
                return EGLDisplayConnection(display: display, platform: "EGL device")
            }
            tried.append("the device platform did not initialize (\(errorName()))")
        }
        if tried.isEmpty { tried.append("EGL offers neither the surfaceless nor the device platform (is libegl-mesa0 installed?)") }
        throw GLESUnavailable(tried.joined(separator: "; "))
    }

    private static func initialized(_ display: EGLDisplay?) -> EGLDisplay? {
        guard let display else { return nil }
        var major: EGLint = 0, minor: EGLint = 0
        return eglInitialize(display, &major, &minor) == EGL_TRUE ? display : nil
    }

    private static func firstDevice() -> EGLDeviceEXT? {
        guard let address = eglGetProcAddress("eglQueryDevicesEXT") else { return nil }
        typealias QueryDevices = @convention(c) (EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
        let query = unsafeBitCast(address, to: QueryDevices.self)
        var device: EGLDeviceEXT?
        var count: EGLint = 0
        guard query(1, &device, &count) == EGL_TRUE, count > 0 else { return nil }
        return device
    }

    /// The last EGL error as its name's number, for a log line.
    static func errorName() -> String { "EGL error 0x\(String(eglGetError(), radix: 16))" }

    func hasExtension(_ name: String) -> Bool {
        (eglQueryString(display, EGLint(EGL_EXTENSIONS)).map { String(cString: $0) } ?? "").split(separator: " ").contains { $0 == name }
    }
}
