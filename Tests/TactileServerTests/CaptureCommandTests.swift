import CPNG
import Foundation
import TactileWayland
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// `tactile capture` against a running server, as a user saves what a window or a screen
/// shows: the PNG has the window's own pixels though another covers it, or the output as
/// composed; a window or output that is not there, or a question asked wrong, is an error.
@Suite(.serialized) struct CaptureCommandTests {
    static let red: UInt32 = 0xffd0_2020, blue: UInt32 = 0xff20_20d0

    /// The capture globals and the window list for `tactile capture`. `tactile serve` gives
    /// them to its own executable; the server here runs in the tests' process, so the binary
    /// is named.
    static var capturing: ServerConfiguration {
        var configuration = ServerConfiguration()
        let binary = URL(fileURLWithPath: InspectCommandTests.tactile).resolvingSymlinksInPath().path
        configuration.privileges.grants[.screenCapture] = .only(started: true, executables: [binary])
        configuration.privileges.grants[.windowManagement] = .only(started: true, executables: [binary])
        return configuration
    }

    /// Runs `body` against a server showing window A (org.example.a, red, 200×100 at 100,100)
    /// with window B (org.example.b, blue, 200×100 at 200,150) over its bottom-right quarter;
    /// their client stays connected until `body` returns.
    static func withCoveredWindow(_ configuration: ServerConfiguration = capturing, _ body: (TestServer) throws -> Void) throws {
        let server = try TestServer(configuration)
        let client = try TestClient(socket: server.socket)
        for (appID, origin, colour) in [("org.example.a", (Int32(100), Int32(100)), red), ("org.example.b", (200, 150), blue)] {
            let window = try client.toplevel(width: 200, height: 100, at: origin)
            xdg_toplevel_set_app_id(window.toplevel, appID)
            try client.commitBuffer(window.surface, width: 200, height: 100, colour: colour)
        }
        try client.roundtrip()
        try withExtendedLifetime(client) { try body(server) }
    }

    /// Runs `tactile capture --socket SOCKET ARGUMENTS FILE`: its status and output, and the
    /// PNG it wrote, if any.
    static func capture(_ server: TestServer, _ arguments: [String]) throws -> (status: Int32, output: String, png: PNGFile?) {
        try #require(FileManager.default.isExecutableFile(atPath: InspectCommandTests.tactile), "\(InspectCommandTests.tactile) was not built")
        let path = NSTemporaryDirectory() + "tactile-capture-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runProcess(InspectCommandTests.tactile, ["capture", "--socket", server.socket] + arguments + [path],
                                    environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
        return (result.status, result.output, FileManager.default.fileExists(atPath: path) ? try PNGFile(path) : nil)
    }

    @Test func aCoveredWindowIsCapturedAloneAtItsSize() throws {
        try Self.withCoveredWindow { server in
            let result = try Self.capture(server, ["--window", "org.example.a"])
            #expect(result.status == 0, "\(result.output)")
            let png = try #require(result.png)
            #expect(png.width == 200 && png.height == 100 && png.isRGBA)
            #expect(png.pixel(150, 75) == Self.rgba(Self.red), "where B covers A on screen, A's own pixel")
            var wrong = 0
            for y in 0..<100 { for x in 0..<200 where png.pixel(x, y) != Self.rgba(Self.red) { wrong += 1 } }
            #expect(wrong == 0, "every pixel A's red, opaque")
        }
    }

    @Test func anOutputIsCapturedAsComposed() throws {
        try Self.withCoveredWindow { server in
            let result = try Self.capture(server, ["--output", "HEADLESS-1"])
            #expect(result.status == 0, "\(result.output)")
            let png = try #require(result.png)
            #expect(png.width == 1280 && png.height == 800 && png.isRGBA)
            let background: UInt32 = 0x2020_20ff
            for (x, y, colour, what) in [(120, 120, Self.rgba(Self.red), "A, uncovered"), (250, 175, Self.rgba(Self.blue), "B over A"),
                                         (399, 249, Self.rgba(Self.blue), "B's last pixel"), (400, 250, background, "past B"),
                                         (10, 10, background, "no window")] {
                #expect(png.pixel(x, y) == colour, "\(what) at \(x),\(y): \(String(png.pixel(x, y), radix: 16))")
            }
        }
    }

    @Test(arguments: [
        (["--window", "org.example.nobody"], "Error: no window with app_id org.example.nobody; the app_ids: org.example.a, org.example.b"),
        (["--output", "HDMI-9"], "Error: no output named HDMI-9; the outputs: HEADLESS-1"),
    ])
    func aMissingWindowOrOutputIsAnErrorNamingWhatThereIs(_ arguments: [String], _ message: String) throws {
        try Self.withCoveredWindow { server in
            let result = try Self.capture(server, arguments)
            #expect(result.status == 1)
            #expect(result.output == message + "\n")
            #expect(result.png == nil)
        }
    }

    /// The standard policy gives capture to Tactile's own executable, which the tests'
    /// server (running in the test process) is not.
    @Test func withoutThePrivilegeTheErrorNamesIt() throws {
        try Self.withCoveredWindow(ServerConfiguration()) { server in
            let result = try Self.capture(server, ["--output", "HEADLESS-1"])
            #expect(result.status == 1)
            #expect(result.output.contains("offers no ext_output_image_capture_source_manager_v1 to this client (privileges.screen-capture)"), "\(result.output)")
        }
    }

    @Test(arguments: [["--window", "org.example.a", "--output", "HEADLESS-1"], []])
    func oneOfWindowAndOutputIsRequired(_ arguments: [String]) throws {
        try Self.withCoveredWindow { server in
            let result = try Self.capture(server, arguments)
            #expect(result.status == 64, "a usage error (EX_USAGE)")
            #expect(result.output.contains("give one of --window <app-id> and --output <name>") && result.output.contains("Usage: tactile capture"), "\(result.output)")
            #expect(result.png == nil)
        }
    }

    /// 0xAARRGGBB as 0xRRGGBBAA, the order of a PNG's bytes.
    static func rgba(_ argb: UInt32) -> UInt32 { argb << 8 | argb >> 24 }
}

/// A PNG file read with libpng: its size, whether it is stored with alpha, its pixels.
struct PNGFile {
    let width: Int
    let height: Int
    /// Stored as 8-bit RGBA (colour and alpha), as window captures need.
    let isRGBA: Bool
    private let bytes: [UInt8]

    init(_ path: String) throws {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        try #require(png_image_begin_read_from_file(&image, path) != 0, "\(path) is a PNG")
        (width, height) = (Int(image.width), Int(image.height))
        // PNG_FORMAT_RGBA, a macro Swift does not import.
        let rgba = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        isRGBA = image.format == rgba
        image.format = rgba
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        try #require(png_image_finish_read(&image, nil, &bytes, 0, nil) != 0, "\(path) decodes")
        self.bytes = bytes
    }

    /// 0xRRGGBBAA at (x, y).
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        bytes[(y * width + x) * 4..<(y * width + x + 1) * 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
