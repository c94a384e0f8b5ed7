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
    }

    /// `wlr-randr --off` takes an output out of the layout (its wl_output goes, its windows
    /// move to the first output, grim's picture shrinks) and lists it as disabled; `--on`
    /// brings it back, kiosk or not. (A disabled head has no position, so wlr-randr asks for
    /// 0,0 unless told where.)
    @Test(arguments: [false, true])
    func wlrRandrTurnsAnOutputOffAndOnAgain(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk), headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 320, height: 240)]))
        let client = try TestClient(socket: server.socket)
        try client.roundtrip()
        let named = Dictionary(uniqueKeysWithValues: client.outputNames.map { ($1, $0) })
        // A kiosk puts its second window on the second output; a desktop where it is asked to.
        let window = kiosk ? try { _ = try client.toplevel(width: 100, height: 100); return try client.toplevel(width: 100, height: 100) }()
            : try client.toplevel(width: 100, height: 100, at: (700, 10))
        try client.roundtrip()
        #expect(window.outputs == [named["HEADLESS-2"]!])
        let off = try Self.randr(server, ["--output", "HEADLESS-2", "--off"])
        #expect(off.status == 0, "\(off.output)")
        try client.roundtrip()
        #expect(client.removedGlobals == [client.outputGlobals[named["HEADLESS-2"]!]!], "HEADLESS-2's wl_output went")
        #expect(window.outputs == [named["HEADLESS-1"]!], "its window moved to HEADLESS-1")
        if kiosk { #expect(window.configuredSize! == (640, 480), "and fills it") }
        #expect(try TestClient(socket: server.socket).outputs.count == 1)
        let listing = try Self.randr(server).output
        #expect(listing.contains("HEADLESS-2") && listing.contains("Enabled: no"), "\(listing)")
        var shot = try Screenshot(socket: server.socket)
        #expect(Size(width: shot.width, height: shot.height) == Size(width: 640, height: 480), "the layout is HEADLESS-1 alone")

        let on = try Self.randr(server, ["--output", "HEADLESS-2", "--on", "--pos", "640,0"])
        #expect(on.status == 0, "\(on.output)")
        try client.roundtrip()
        #expect(client.outputs.count == 3, "a new wl_output for HEADLESS-2 (the gone one's proxy stays)")
        #expect(try Self.randr(server).output.components(separatedBy: "Enabled: yes").count == 3)
        #expect(try Self.randr(server).output.contains("Position: 640,0"))
        shot = try Screenshot(socket: server.socket)
        #expect(Size(width: shot.width, height: shot.height) == Size(width: 960, height: 480))
    }

    /// The only output turned off and on again (turned, as wlr-randr asks for a disabled head
    /// only what it is told): the kiosk window waits, is told the portrait size, and the next
    /// touch reaches it.
    @Test func theLastOutputTurnedOffAndOnTakesTouchesAgain() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true))
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 100, height: 100)
        #expect(try Self.randr(server, ["--output", "HEADLESS-1", "--off"]).status == 0)
        #expect(try Self.randr(server, ["--output", "HEADLESS-1", "--on", "--transform", "90"]).status == 0)
        try client.roundtrip()
        #expect(window.configuredSize! == (800, 1280))
        _ = client.take()
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(50), f(60))
            tactile_test_input_v1_touch_frame(input)
        }
        #expect(client.take().filter { !$0.isKeyboard } == [.touchDown(surface: client.id(window.surface), id: 1, x: f(50), y: f(60)), .touchFrame])
    }

    /// An output the configuration file turns off is listed, dark, and an output manager
    /// can turn it on.
    @Test func anOutputDisabledByTheConfigurationCanBeTurnedOn() throws {
        var configuration = ServerConfiguration()
        configuration.outputs = [OutputSettings(name: "HEADLESS-2", enabled: false)]
        let server = try TestServer(configuration, headless: .init(outputs: [Size(width: 640, height: 480), Size(width: 320, height: 240)]))
        #expect(try TestClient(socket: server.socket).outputs.count == 1)
        #expect(try Self.randr(server).output.contains("Enabled: no"))
        #expect(try Self.randr(server, ["--output", "HEADLESS-2", "--on", "--pos", "640,0"]).status == 0)
        let client = try TestClient(socket: server.socket)
        #expect(client.outputs.count == 2)
        #expect(try Self.randr(server).output.contains("Position: 640,0"))
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
