import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// ext_transient_seat_v1: a remote helper's seat of its own. Its virtual pointer and keyboard
/// move its own pointer and keyboard focus, which the local user's seat never hears of; a
/// local finger keeps its touch; its seat goes with its handle; a session lock keeps its keys
/// from the app; a client gets eight at most.
@Suite(.serialized) struct TransientSeatTests {
    /// A remote helper (wayvnc's part): a transient seat, then a virtual pointer and keyboard
    /// on it. Positions are the layout's pixels (the default headless output is all of it).
    final class RemoteSeat {
        let client: TestClient
        let handle: OpaquePointer
        let answer = RemoteSeatAnswer()
        var name: UInt32? { answer.name }
        var denied: Bool { answer.denied }
        var seat: OpaquePointer?
        var pointer: OpaquePointer?
        var keyboard: OpaquePointer?

        init(_ server: TestServer) throws {
            client = try TestClient(socket: server.socket, devices: ["keyboard"])
            let manager = try client.bind("ext_transient_seat_manager_v1", tactile_ext_transient_seat_manager_v1_interface())
            handle = try #require(ext_transient_seat_manager_v1_create(manager))
            ext_transient_seat_v1_add_listener(handle, RemoteSeatAnswer.listener, Unmanaged.passUnretained(answer).toOpaque())
            try client.roundtrip()
        }

        /// Binds the seat by the name `ready` gave and makes a virtual pointer and keyboard on it.
        func makeDevices() throws {
            let name = try #require(name, "ready came")
            let seat = try #require(OpaquePointer(wl_registry_bind(client.registry, name, tactile_client_wl_seat_interface(), 1)))
            self.seat = seat
            pointer = try virtualPointer()
            keyboard = try client.virtualKeyboard(keymap: client.seatKeymapText(), seat: seat)
            try client.roundtrip()
        }

        func virtualPointer() throws -> OpaquePointer {
            let manager = try client.bind("zwlr_virtual_pointer_manager_v1", tactile_zwlr_virtual_pointer_manager_v1_interface(), version: 2)
            return try #require(zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat))
        }

        func move(to x: UInt32, _ y: UInt32, with other: OpaquePointer? = nil) throws {
            let pointer = try #require(other ?? pointer)
            zwlr_virtual_pointer_v1_motion_absolute(pointer, 0, x, y, 1280, 800)
            zwlr_virtual_pointer_v1_frame(pointer)
            try client.roundtrip()
        }

        func click() throws {
            let pointer = try #require(pointer)
            for state: UInt32 in [1, 0] {
                zwlr_virtual_pointer_v1_button(pointer, 0, 0x110, state)
                zwlr_virtual_pointer_v1_frame(pointer)
            }
            try client.roundtrip()
        }

        func type(_ key: UInt32) throws {
            let keyboard = try #require(keyboard)
            zwp_virtual_keyboard_v1_key(keyboard, 0, key, 1)
            zwp_virtual_keyboard_v1_key(keyboard, 0, key, 0)
            try client.roundtrip()
        }
    }

    /// What follows `marker` in `line` while `keep` takes it; nil without the marker.
    static func text(after marker: String, in line: Substring, while keep: (Character) -> Bool) -> String? {
        line.range(of: marker).map { String(line[$0.upperBound...].prefix(while: keep)) }
    }

    static func isPointerOrKey(_ seen: Seen) -> Bool {
        switch seen {
        case .pointerEnter, .pointerLeave, .pointerMotion, .pointerButton, .keyboardEnter, .keyboardLeave, .key: true
        default: false
        }
    }

    /// An app binds the helper's seat beside its own: the helper's click enters and focuses
    /// the app on that seat alone, its keys arrive there alone, and the local seat's pointer,
    /// keyboard and touch go on as before. When the helper destroys the handle the app hears
    /// both devices leave and the seat's global go, and the helper's pointer drives nothing.
    @Test(arguments: [true, false])
    func aRemoteSeatHasItsOwnPointerAndKeyboardFocus(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let app = try TestClient(socket: server.socket)
        let window = try app.toplevel(width: 200, height: 200)
        try app.roundtrip()
        let surface = app.id(window.surface)
        #expect(app.take().contains(.keyboardEnter(surface: surface, keys: [])), "the local seat focused the new window")

        let helper = try RemoteSeat(server)
        let name = try #require(helper.name)
        #expect(!helper.denied)
        try app.roundtrip()
        #expect(app.registryNames["wl_seat"] == name, "the app heard of the new seat")
        try app.bindSeat(named: name)
        try helper.makeDevices()
        try helper.move(to: 50, 60)
        try helper.click()
        try helper.type(30)
        try app.roundtrip()
        let remote = (app.seenOnSeat[name] ?? []).filter(Self.isPointerOrKey)
        #expect(remote == [
            .pointerEnter(surface: surface, x: f(50), y: f(60)), .keyboardEnter(surface: surface, keys: []),
            .pointerButton(button: 0x110, state: 1), .pointerButton(button: 0x110, state: 0),
            .key(key: 30, state: 1), .key(key: 30, state: 0),
        ])
        #expect(app.take().filter(Self.isPointerOrKey).isEmpty, "the local seat heard nothing of it")
        let line = try #require(server.inspected().first { $0.hasPrefix("seat transient-") })
        #expect(line.contains(" pointer=50,60 "), "\(line)")

        // The local user: a finger and a mouse of their own, heard on their seat only.
        try app.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(10), f(10))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_pointer_motion(input, f(100), f(100))
        }
        app.seenOnSeat[name] = []
        try app.roundtrip()
        let local = app.take()
        #expect(local.contains(.touchDown(surface: surface, id: 1, x: f(10), y: f(10))) && local.contains(.touchUp(id: 1)), "\(local)")
        #expect(local.contains(.pointerEnter(surface: surface, x: f(100), y: f(100))), "\(local)")
        #expect(app.seenOnSeat[name] == [], "the remote seat heard nothing of the local input")

        ext_transient_seat_v1_destroy(helper.handle)
        try helper.client.roundtrip()
        try app.roundtrip()
        #expect(app.seenOnSeat[name]?.contains(.pointerLeave(surface: surface)) == true)
        #expect(app.seenOnSeat[name]?.contains(.keyboardLeave(surface: surface)) == true)
        #expect(app.removedGlobals.contains(name))
        app.seenOnSeat[name] = []
        try helper.move(to: 70, 80)
        let late = try helper.virtualPointer()
        try helper.move(to: 90, 90, with: late)
        try helper.type(31)
        try app.roundtrip()
        #expect(app.seenOnSeat[name] == [], "an ended seat's devices drive nothing")
        #expect(!server.inspected().contains { $0.hasPrefix("seat transient-") })
    }

    /// An app showing a window (its surface's id) and a helper whose seat is ready (its name).
    static func appAndHelper(_ server: TestServer) throws -> (app: TestClient, surface: UInt32, helper: RemoteSeat, name: UInt32) {
        let app = try TestClient(socket: server.socket)
        let window = try app.toplevel(width: 200, height: 200)
        let helper = try RemoteSeat(server)
        return (app, app.id(window.surface), helper, try #require(helper.name))
    }

    /// An app that binds the helper's seat only after the helper clicked it: its new pointer
    /// and keyboard hear at once where the seat's focus is, not at the next focus change.
    @Test func anAppBindingTheSeatAfterTheHelpersClickHearsItsFocus() throws {
        let server = try TestServer()
        let (app, surface, helper, name) = try Self.appAndHelper(server)
        try helper.makeDevices()
        try helper.move(to: 50, 60)
        try helper.click()
        try app.roundtrip()
        try app.bindSeat(named: name)
        #expect(app.seenOnSeat[name]?.filter(Self.isPointerOrKey) == [
            .pointerEnter(surface: surface, x: f(50), y: f(60)), .keyboardEnter(surface: surface, keys: []),
        ])
    }

    /// While the session is locked the helper's keys reach nothing but the lock: the app it
    /// focused hears its keyboard leave and no key.
    @Test func theSessionLockKeepsARemoteSeatsKeysFromTheApp() throws {
        let server = try TestServer()
        let (app, surface, helper, name) = try Self.appAndHelper(server)
        try app.roundtrip()
        try app.bindSeat(named: name)
        try helper.makeDevices()
        try helper.move(to: 50, 60)
        try helper.click()
        try app.roundtrip()
        #expect(app.seenOnSeat[name]?.contains(.keyboardEnter(surface: surface, keys: [])) == true)
        app.seenOnSeat[name] = []
        let locker = try TestClient(socket: server.socket)
        _ = try SessionLockTests.lock(locker)
        try helper.type(30)
        try app.roundtrip()
        let heard = app.seenOnSeat[name] ?? []
        #expect(heard.contains(.keyboardLeave(surface: surface)), "\(heard)")
        #expect(!heard.contains(.key(key: 30, state: 1)), "\(heard)")
    }

    /// Eight seats for one client; the ninth is denied, and the others still work.
    @Test func aNinthSeatOfOneClientIsDenied() throws {
        let server = try TestServer()
        let client = try TestClient(socket: server.socket)
        let manager = try client.bind("ext_transient_seat_manager_v1", tactile_ext_transient_seat_manager_v1_interface())
        var seats: [RemoteSeatAnswer] = []
        for _ in 0..<9 {
            let answer = RemoteSeatAnswer()
            let handle = try #require(ext_transient_seat_manager_v1_create(manager))
            ext_transient_seat_v1_add_listener(handle, RemoteSeatAnswer.listener, Unmanaged.passUnretained(answer).toOpaque())
            seats.append(answer)
        }
        try client.roundtrip()
        #expect(seats.prefix(8).allSatisfy { $0.name != nil && !$0.denied })
        #expect(Set(seats.prefix(8).compactMap(\.name)).count == 8, "each its own global")
        #expect(seats[8].denied && seats[8].name == nil)
        let other = try RemoteSeat(server)
        #expect(other.name != nil, "another client's seat is made")
    }

    /// weston-eventdemo, which nobody here wrote, takes each wl_seat as it is announced: the
    /// helper's click and key reach it through the helper's seat (its protocol log shows them
    /// on the devices it made from `transient-1`), and it logs them as any, in a kiosk and
    /// on a desktop.
    @Test(arguments: [true, false])
    func westonEventdemoHearsARemoteSeatsClickAndKey(kiosk: Bool) throws {
        let server = try TestServer(ServerConfiguration(kioskMode: kiosk))
        let demo = try ClientProcess(["stdbuf", "-oL", "weston-eventdemo", "--log-button", "--log-key"], socket: server.socket, protocolLog: true)
        defer { demo.stop() }
        // Its window as the inspector shows it, window=x,y,wxh, once it has a size (its node
        // is listed, 0x0, before its first buffer): the helper clicks its middle.
        var numbers: [Int] = []
        let deadline = Date().addingTimeInterval(30)
        while !(numbers.count == 4 && numbers[2] > 0 && numbers[3] > 0), Date() < deadline {
            usleep(50_000)
            let line = server.inspected().first { $0.contains("role=toplevel") && $0.contains(" window=") }
            numbers = line.flatMap { $0.split(separator: " ").first { $0.hasPrefix("window=") } }
                .map { $0.dropFirst("window=".count).split { $0 == "," || $0 == "x" }.compactMap { Int($0) } } ?? []
        }
        try #require(numbers.count == 4 && numbers[2] > 0, "weston-eventdemo mapped: \(numbers) \(demo.outputSoFar)")
        let helper = try RemoteSeat(server)
        try helper.makeDevices()
        // The helper waits for the app to take the new seat's devices (a remote viewer's
        // person is slower than this).
        let named = try demo.waitForOutput(containing: ".name(\"transient-1\")").split(separator: "\n")
        let seat = try #require(named.first { $0.contains(".name(\"transient-1\")") }.flatMap { Self.text(after: "wl_seat@", in: $0) { $0.isNumber } })
        // Its keyboard's keymap: the server has taken both devices, so the click and the key
        // have somewhere to go (a key typed before would reach no keyboard).
        let bound = try demo.waitForOutput(containing: "wl_seat@\(seat).get_keyboard(").split(separator: "\n")
        let keyboard = try #require(bound.first { $0.contains("wl_seat@\(seat).get_keyboard(") }.flatMap { Self.text(after: "new id ", in: $0) { $0 != ")" } })
        _ = try demo.waitForOutput(containing: "\(keyboard).keymap(")
        try helper.move(to: UInt32(numbers[0] + numbers[2] / 2), UInt32(numbers[1] + numbers[3] / 2))
        try helper.click()
        try helper.type(30)
        let log = try demo.waitForOutput(containing: "state: released", times: 2)
        #expect(log.contains("button: 272, state: pressed"), "\(log.suffix(3000))")
        #expect(log.contains("key: 30, unicode: 97, state: pressed"), "\(log.suffix(3000))")
        // Which of its seats the events came on: the devices it got from the seat named transient-1.
        let lines = log.split(separator: "\n")
        let devices = lines.filter { $0.contains("wl_seat@\(seat).get_") }.compactMap { Self.text(after: "new id ", in: $0) { $0 != ")" } }
        #expect(devices.contains { $0.hasPrefix("wl_pointer@") } && devices.contains { $0.hasPrefix("wl_keyboard@") }, "\(devices)")
        for device in devices where device.hasPrefix("wl_pointer@") {
            #expect(log.contains("\(device).button("), "the click came on \(device)")
        }
        for device in devices where device.hasPrefix("wl_keyboard@") {
            #expect(log.contains("\(device).key("), "the key came on \(device)")
        }
    }

    /// What a transient seat's handle was told: its wl_seat's name, or denied.
    final class RemoteSeatAnswer {
        var name: UInt32?
        var denied = false

        nonisolated(unsafe) static let listener: UnsafeMutablePointer<ext_transient_seat_v1_listener> = {
            let listener = UnsafeMutablePointer<ext_transient_seat_v1_listener>.allocate(capacity: 1)
            listener.initialize(to: ext_transient_seat_v1_listener(
                ready: { data, _, name in Unmanaged<RemoteSeatAnswer>.fromOpaque(data!).takeUnretainedValue().name = name },
                denied: { data, _ in Unmanaged<RemoteSeatAnswer>.fromOpaque(data!).takeUnretainedValue().denied = true }
            ))
            return listener
        }()
    }
}
