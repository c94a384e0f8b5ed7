import Glibc
import Logging
import TactileBackends
import TactileWayland
import Testing

/// What the libinput backend says when it cannot start; its working path is tested with real
/// devices in LibinputGuestTests.
///
/// One at a time: as root without a seat manager, libseat forks a seat manager out of the
/// test process. Two forked at once each inherit the other's end of its connection, so
/// neither sees its test go; both outlived the test process, holding `swift test`'s output
/// open, and CI waited its 90 minutes for them.
@Suite(.serialized) struct LibinputBackendTests {
    @Test func aDeviceThatIsNotThereStopsItWithThePathAndWhatToCheck() throws {
        let server = try WaylandServer()
        let options = LibinputOptions(source: .paths(["/dev/input/no-such-device"]))
        let error = #expect(throws: BackendError.self) { try LibinputBackend(host: server.port, options: options, logger: Logger(label: "test")) }
        if geteuid() == 0 {
            // Root may open devices without a seat manager, so it gets as far as the path.
            #expect(error?.description == "libinput cannot use /dev/input/no-such-device (does it exist, is it an input device, may we open it?)")
        } else {
            #expect(error?.description.hasPrefix("cannot open input devices: no seat manager answered") == true)
        }
    }

    @Test func withNoDeviceYetTheSeatHasNoCapabilities() throws {
        try #require(geteuid() == 0, "this test needs root, as the project's CI runs: without a seat manager only root may open devices")
        let server = try WaylandServer()
        // seat0 of this machine, which has no input devices at all (no /dev/input): as a kiosk
        // whose touchscreen is not plugged in yet.
        let backend = try LibinputBackend(host: server.port, options: LibinputOptions(source: .seat("seat0")), logger: Logger(label: "test"))
        #expect(server.port.seatCapabilities == [])
        withExtendedLifetime(backend) {}
    }
}
