import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// zwlr_output_manager_v1 as people use it: wlr-randr and kanshi (Debian's) list the outputs
/// and change them at run time; a kiosk window follows; a change that cannot apply changes
/// nothing; bad requests are the protocol's errors.
@Suite(.serialized) struct OutputManagementTests {
    static func randr(_ server: TestServer, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
        try runProcess("/usr/bin/wlr-randr", arguments, environment: ["WAYLAND_DISPLAY": server.socket, "XDG_RUNTIME_DIR": TestServer.runtimeDirectory])
    }

    @Test func wlrRandrListsEveryOutputWithItsModeAndSettings() throws {
        var configuration = ServerConfiguration()
        configuration.outputs = [OutputSettings(name: "HEADLESS-2", transform: .rotated270)]
        let server = try TestServer(configuration, headless: .init(outputs: [Size(width: 1280, height: 800), Size(width: 640, height: 480)]))
        let listing = try Self.randr(server)
        #expect(listing.status == 0, "\(listing.output)")
        #expect(listing.output.contains("HEADLESS-1 \"Tactile headless output 1280x800\""), "\(listing.output)")
        #expect(listing.output.contains("1280x800 px, 60.000000 Hz (preferred, current)"))
        #expect(listing.output.contains("HEADLESS-2 \"Tactile headless output 640x480\""))
        #expect(listing.output.contains("640x480 px, 60.000000 Hz (preferred, current)"), "the mode is the panel's")
        #expect(listing.output.contains("Position: 1280,0"))
        #expect(listing.output.contains("Transform: 270"), "the configured transform")
    }

    /// An entry naming a make and model (as a screen's EDID gives them) applies to every
    /// screen that is one, whatever its name.
    @Test func anEntryByMakeAndModelAppliesToEveryScreenOfThatModel() throws {
        var configuration = ServerConfiguration()
        configuration.outputs = [OutputSettings(make: "Tactile", model: "headless", transform: .rotated180), OutputSettings(model: "nested", scale: 2)]
        let server = try TestServer(configuration, headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 640, height: 480)]))
        let listing = try Self.randr(server).output
        #expect(listing.components(separatedBy: "Transform: 180").count == 3, "both outputs: \(listing)")
        #expect(!listing.contains("Scale: 2"), "an entry for another model applies to neither")
    }

    /// As on a kiosk: wlr-randr turns the screen; the full-screen window is told the portrait
    /// size at once, wl_output names the transform, and grim's picture is portrait.
    @Test func wlrRandrTurnsAnOutputAtRunTimeAndTheKioskWindowFollows() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        #expect(window.configuredSize.map { Size(width: Int($0.width), height: Int($0.height)) } == Size(width: 1280, height: 800))
        let turned = try Self.randr(server, ["--output", "HEADLESS-1", "--transform", "90"])
        #expect(turned.status == 0, "\(turned.output)")
        try client.roundtrip()
        #expect(window.configuredSize.map { Size(width: Int($0.width), height: Int($0.height)) } == Size(width: 800, height: 1280), "reconfigured to the portrait size")
        #expect(client.outputTransforms[client.outputs[0]] == OutputTransform.rotated90.rawValue)
        let shot = try Screenshot(socket: server.socket)
        #expect(Size(width: shot.width, height: shot.height) == Size(width: 800, height: 1280))
        #expect(try Self.randr(server).output.contains("Transform: 90"))
    }

    /// Scale 5 is beyond what Tactile composes: the whole configuration, the transform with
    /// it, is refused.
    @Test func aConfigurationThatCannotApplyChangesNothing() throws {
        let server = try TestServer()
        let refused = try Self.randr(server, ["--output", "HEADLESS-1", "--transform", "180", "--scale", "5"])
        #expect(refused.status != 0)
        let listing = try Self.randr(server).output
        #expect(listing.contains("Transform: normal") && listing.contains("Scale: 1.000000"), "\(listing)")
        #expect(try Self.randr(server, ["--output", "HEADLESS-1", "--off"]).status != 0, "turning off is refused, not half done")
        #expect(try Self.randr(server).output.contains("Enabled: yes"))
    }

    /// kanshi applies the profile that matches the outputs it sees.
    @Test func kanshiAppliesAMatchingProfile() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let config = NSTemporaryDirectory() + "tactile-kanshi-\(UUID().uuidString.prefix(8))"
        try "profile {\n  output HEADLESS-1 transform 180 position 0,0\n}\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let kanshi = try ClientProcess(["kanshi", "--config", config], socket: server.socket)
        defer { kanshi.stop() }
        let deadline = Date().addingTimeInterval(10)
        while client.outputTransforms[client.outputs[0]] != OutputTransform.rotated180.rawValue, Date() < deadline {
            try client.roundtrip()
            usleep(20_000)
        }
        #expect(client.outputTransforms[client.outputs[0]] == OutputTransform.rotated180.rawValue, "kanshi turned HEADLESS-1: \(kanshi.outputSoFar)")
    }

    /// A configuration made before the layout last changed is cancelled, not applied.
    @Test func aConfigurationFromBeforeAChangeIsCancelled() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        try client.roundtrip()
        let stale = try #require(client.outputManagerSerial)
        #expect(try Self.randr(server, ["--output", "HEADLESS-1", "--transform", "90"]).status == 0)
        try client.roundtrip()
        let configuration = zwlr_output_manager_v1_create_configuration(client.outputManager, stale)
        zwlr_output_configuration_v1_add_listener(configuration, Listeners.outputConfiguration, Unmanaged.passUnretained(client).toOpaque())
        let head = zwlr_output_configuration_v1_enable_head(configuration, client.outputHeads[0])
        zwlr_output_configuration_head_v1_set_transform(head, OutputTransform.rotated180.rawValue)
        zwlr_output_configuration_v1_apply(configuration)
        try client.roundtrip()
        #expect(client.outputConfigurationAnswer == "cancelled")
        #expect(try Self.randr(server).output.contains("Transform: 90"))
    }

    /// A mode the output lacks, and a head whose output is gone, fail the configuration.
    @Test func aModeTheOutputLacksOrAGoneOutputFails() throws {
        let server = try TestServer(headless: .init(outputs: [Size(width: 1280, height: 800), Size(width: 640, height: 480)]))
        let client = try TestClient(socket: server.socket)
        try client.roundtrip()
        func apply(_ configure: (OpaquePointer) -> Void) throws -> String? {
            client.outputConfigurationAnswer = nil
            let configuration = zwlr_output_manager_v1_create_configuration(client.outputManager, try #require(client.outputManagerSerial))
            zwlr_output_configuration_v1_add_listener(configuration, Listeners.outputConfiguration, Unmanaged.passUnretained(client).toOpaque())
            configure(configuration!)
            zwlr_output_configuration_v1_apply(configuration)
            try client.roundtrip()
            return client.outputConfigurationAnswer
        }
        #expect(try apply { configuration in
            let head = zwlr_output_configuration_v1_enable_head(configuration, client.outputHeads[0])
            zwlr_output_configuration_head_v1_set_custom_mode(head, 640, 480, 0)
        } == "failed")
        #expect(try Self.randr(server).output.contains("1280x800 px, 60.000000 Hz (preferred, current)"))
        // HEADLESS-2 unplugged while a client still holds its head: a configuration naming it
        // (made after the change, so not merely cancelled) fails.
        server.onServerThread { _, headless in headless.removeOutput(headless.outputs[1]) }
        try client.roundtrip()
        #expect(try apply { configuration in
            let head = zwlr_output_configuration_v1_enable_head(configuration, client.outputHeads[1])
            zwlr_output_configuration_head_v1_set_transform(head, 1)
        } == "failed")
    }

    /// Each bad request is its error; the server and other clients go on.
    @Test(arguments: [
        ("transform 9", ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM.rawValue),
        ("scale 0", ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE.rawValue),
        ("transform twice", ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET.rawValue),
        ("custom mode 0x0", ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE.rawValue),
        ("head twice", ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD.rawValue),
        ("apply twice", ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue),
    ])
    func badRequestsAreProtocolErrors(_ mistake: String, code: UInt32) throws {
        let server = try TestServer()
        let bystander = try TestClient(socket: server.socket)
        let client = try TestClient(socket: server.socket)
        try client.roundtrip()
        let configuration = zwlr_output_manager_v1_create_configuration(client.outputManager, try #require(client.outputManagerSerial))
        let head = zwlr_output_configuration_v1_enable_head(configuration, client.outputHeads[0])
        switch mistake {
        case "transform 9": zwlr_output_configuration_head_v1_set_transform(head, 9)
        case "scale 0": zwlr_output_configuration_head_v1_set_scale(head, 0)
        case "transform twice":
            zwlr_output_configuration_head_v1_set_transform(head, 1)
            zwlr_output_configuration_head_v1_set_transform(head, 2)
        case "custom mode 0x0": zwlr_output_configuration_head_v1_set_custom_mode(head, 0, 0, 0)
        case "head twice": _ = zwlr_output_configuration_v1_enable_head(configuration, client.outputHeads[0])
        default:
            zwlr_output_configuration_v1_test(configuration)
            zwlr_output_configuration_v1_apply(configuration)
        }
        #expect(throws: ClientError.self) { try client.roundtrip() }
        #expect(client.lastError.hasSuffix(": \(code)"), "\(client.lastError)")
        try bystander.roundtrip()
        #expect(try Self.randr(server).status == 0)
    }
}
