import CWaylandClient
import Foundation
@testable import TactileTestSupport
import TactileWayland
import Testing
import WaylandProtocols

/// Clipboard control: Debian's wl-copy and wl-paste round-trip text with a focused app through
/// zwlr_data_control_manager_v1, which the standard policy grants them, and make no surface of
/// their own; our own client speaks ext_data_control_manager_v1, hears every change, and the
/// protocol's errors hold.
@Suite struct DataControlTests {
    static let text = "text/plain;charset=utf-8"

    /// Reads `fd` to its end (the writer closes it), then closes it.
    static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        close(fd)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [false, true])
    func wlCopyAndWlPasteRoundTripWithAFocusedAppAndMakeNoSurface(kiosk: Bool) throws {
        var configuration = ServerConfiguration()
        configuration.privileges = .standard
        configuration.kioskMode = kiosk
        let server = try TestServer(configuration)
        let app = try TestClient(socket: server.socket)
        _ = try app.toplevel(width: 100, height: 100)
        let clipboard = ClipboardClient(client: app)
        try app.roundtrip()

        let copy = try ClientProcess(["wl-copy", "--foreground", "hello from wl-copy"], socket: server.socket, protocolLog: true)
        defer { copy.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !clipboard.selectionTypes.contains(Self.text), Date() < deadline {
            try app.roundtrip()
            usleep(20_000)
        }
        let fd = try #require(clipboard.paste(as: Self.text), "the app was offered wl-copy's text")
        try app.roundtrip()
        #expect(Self.readAll(fd) == "hello from wl-copy")
        let held = try #require(Self.clientLine(pid: copy.pid, on: server), "wl-copy is a client")
        #expect(held.contains(" surfaces=0 "), "Tactile sees no surface of wl-copy's: \(held)")

        clipboard.copy("from the app", as: Self.text, client: app)
        try app.roundtrip()
        let paste = try ClientProcess(["wl-paste", "--no-newline"], socket: server.socket, protocolLog: true)
        defer { paste.stop() }
        // The app writes when wl-paste asks: its connection is read meanwhile.
        while paste.isRunning, Date() < deadline.addingTimeInterval(10) {
            try app.roundtrip()
            usleep(20_000)
        }
        let pasted = try paste.waitForExit()
        #expect(pasted.contains("from the app"), "\(pasted.suffix(2000))")
        // Replaced by the app's copy, wl-copy heard its source cancelled and ended.
        let copied = try copy.waitForExit()
        #expect(copied.contains(".cancelled()"), "\(copied.suffix(2000))")
        for log in [copied, pasted] {
            #expect(log.contains("zwlr_data_control_manager_v1"), "it bound clipboard control")
            #expect(!log.contains("create_surface"), "it made no surface of its own")
        }
        print("wl-copy and wl-paste against Tactile:\n" + (copied + pasted).split(separator: "\n").filter {
            $0.contains("data_control") || $0.contains("from the app")
        }.joined(separator: "\n"))
    }

    /// `tactile inspect`'s line for the client of `pid`: what it makes the server hold.
    static func clientLine(pid: Int32, on server: TestServer) -> String? {
        server.inspected().first { $0.hasPrefix("client ") && $0.contains(" pid=\(pid) ") }
    }

    /// Presses `keys` (evdev codes) together, then releases them in reverse: a shortcut.
    static func shortcut(_ injector: TestClient, _ keys: [Int32]) throws {
        try injector.inject { input in
            for key in keys { tactile_test_input_v1_key(input, UInt32(key), 1) }
            for key in keys.reversed() { tactile_test_input_v1_key(input, UInt32(key), 0) }
        }
    }

    static let (leftCtrl, leftShift, keyA, keyC, keyV) = (Int32(29), Int32(42), Int32(30), Int32(46), Int32(47))

    /// Runs `wl-paste ARGUMENTS` until it exits: what it printed (its protocol log is not
    /// asked for).
    static func wlPaste(_ arguments: [String], socket: String) throws -> String {
        try ClientProcess(["wl-paste", "--no-newline"] + arguments, socket: socket).waitForExit()
    }

    /// GTK 3, which nobody here wrote, in a kiosk and on a desktop: Ctrl+V pastes what
    /// wl-copy set into its focused entry, Ctrl+A Ctrl+C copies it back out, and wl-paste
    /// prints it: the text went through GTK both ways, wl-copy's source was read, then
    /// cancelled.
    @Test(arguments: [false, true])
    func gtkPastesWlCopysTextAndWlPasteReadsGtksCopy(kiosk: Bool) throws {
        var configuration = ServerConfiguration(kioskMode: kiosk)
        configuration.privileges = .standard
        let server = try TestServer(configuration)
        let injector = try TestClient(socket: server.socket, devices: [])
        let gtk = try ClientProcess(["gtk3-demo", "--run=entry_buffer"], socket: server.socket, protocolLog: true)
        defer { gtk.stop() }
        try gtk.waitForOutput(containing: "ack_configure(")
        let copy = try ClientProcess(["wl-copy", "--foreground", "through GTK"], socket: server.socket, protocolLog: true)
        defer { copy.stop() }
        // Offered to the client with keyboard focus: GTK's entry has it.
        try gtk.waitForOutput(containing: ".selection(wl_data_offer@")
        try Self.shortcut(injector, [Self.leftCtrl, Self.keyV])
        try copy.waitForOutput(containing: ".send(\"")
        usleep(300_000)
        try Self.shortcut(injector, [Self.leftCtrl, Self.keyA])
        try Self.shortcut(injector, [Self.leftCtrl, Self.keyC])
        let copied = try copy.waitForExit()
        #expect(copied.contains(".cancelled()"), "GTK's copy replaced wl-copy's: \(copied.suffix(1500))")
        #expect(try Self.wlPaste([], socket: server.socket) == "through GTK", "wl-paste printed what GTK copied")
        #expect(!copied.contains("create_surface"))
    }

    /// foot, which nobody here wrote, in a kiosk and on a desktop: Ctrl+Shift+V types wl-copy's
    /// line into the shell foot runs, which writes it to a file; a double click on foot's
    /// first word selects it (the primary selection) and Ctrl+Shift+C copies it: wl-paste
    /// prints both.
    @Test(arguments: [false, true])
    func footPastesWlCopysTextAndWlPasteReadsFootsSelection(kiosk: Bool) throws {
        var configuration = ServerConfiguration(kioskMode: kiosk)
        configuration.privileges = .standard
        let server = try TestServer(configuration)
        let injector = try TestClient(socket: server.socket, devices: [])
        let file = NSTemporaryDirectory() + "tactile-foot-paste-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let foot = try ClientProcess(["foot", "sh", "-c", "printf 'footword\\n'; read line; printf '%s' \"$line\" > \(file); sleep 60"],
                                     socket: server.socket, protocolLog: true)
        defer { foot.stop() }
        try foot.waitForOutput(containing: "ack_configure(")
        let copy = try ClientProcess(["wl-copy", "--foreground", "through foot\n"], socket: server.socket)
        defer { copy.stop() }
        try foot.waitForOutput(containing: ".selection(wl_data_offer@")
        try Self.shortcut(injector, [Self.leftCtrl, Self.leftShift, Self.keyV])
        var pasted: String?
        let deadline = Date().addingTimeInterval(10)
        while pasted?.isEmpty ?? true, Date() < deadline {
            usleep(50_000)
            pasted = try? String(contentsOfFile: file, encoding: .utf8)
        }
        #expect(pasted == "through foot", "the shell in foot read wl-copy's line")

        // foot's first row holds "footword"; a double click there selects the word.
        try injector.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(12), f(6))
            for _ in 0..<2 {
                tactile_test_input_v1_pointer_button(input, 0x110, 1)
                tactile_test_input_v1_pointer_button(input, 0x110, 0)
            }
        }
        try foot.waitForOutput(containing: ".set_selection(zwp_primary_selection_source_v1@")
        #expect(try Self.wlPaste(["--primary"], socket: server.socket) == "footword", "the primary selection is foot's word")
        try Self.shortcut(injector, [Self.leftCtrl, Self.leftShift, Self.keyC])
        try foot.waitForOutput(containing: ".set_selection(wl_data_source@")
        var clipboard = ""
        while clipboard != "footword", Date() < deadline.addingTimeInterval(10) {
            clipboard = (try? Self.wlPaste([], socket: server.socket)) ?? ""
            usleep(100_000)
        }
        #expect(clipboard == "footword", "Ctrl+Shift+C put foot's selection on the clipboard")
    }

    /// What an ext control device heard, in order.
    final class Heard {
        var events: [String] = []
        var types: [OpaquePointer: [String]] = [:]
        var offers: [String: OpaquePointer] = [:]
        var text = ""
    }

    nonisolated(unsafe) static let deviceListener: UnsafeMutablePointer<ext_data_control_device_v1_listener> = {
        let listener = UnsafeMutablePointer<ext_data_control_device_v1_listener>.allocate(capacity: 1)
        func heard(_ data: UnsafeMutableRawPointer?) -> Heard { Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue() }
        listener.initialize(to: ext_data_control_device_v1_listener(
            data_offer: { data, _, offer in ext_data_control_offer_v1_add_listener(offer, offerListener, data) },
            selection: { data, _, offer in
                let h = heard(data)
                h.events.append("selection " + (offer.map { h.types[$0, default: []].joined(separator: ",") } ?? "none"))
                if let offer { h.offers["clipboard"] = offer }
            },
            finished: { data, _ in heard(data).events.append("finished") },
            primary_selection: { data, _, offer in
                let h = heard(data)
                h.events.append("primary " + (offer.map { h.types[$0, default: []].joined(separator: ",") } ?? "none"))
            }
        ))
        return listener
    }()

    nonisolated(unsafe) static let offerListener: UnsafeMutablePointer<ext_data_control_offer_v1_listener> = {
        let listener = UnsafeMutablePointer<ext_data_control_offer_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: ext_data_control_offer_v1_listener(
            offer: { data, offer, mime in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().types[offer!, default: []].append(String(cString: mime!)) }
        ))
        return listener
    }()

    nonisolated(unsafe) static let sourceListener: UnsafeMutablePointer<ext_data_control_source_v1_listener> = {
        let listener = UnsafeMutablePointer<ext_data_control_source_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: ext_data_control_source_v1_listener(
            send: { data, _, _, fd in
                let text = Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().text
                _ = text.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            },
            cancelled: { data, _ in Unmanaged<Heard>.fromOpaque(data!).takeUnretainedValue().events.append("cancelled") }
        ))
        return listener
    }()

    /// The control device hears the empty selections at once, then each change the focused
    /// app makes; what it sets reaches the app, whose copy then cancels it.
    @Test func anExtControlDeviceHearsEveryChangeAndSetsTheClipboard() throws {
        var configuration = ServerConfiguration()
        configuration.privileges = .everyone
        let server = try TestServer(configuration)
        let app = try TestClient(socket: server.socket)
        _ = try app.toplevel(width: 100, height: 100)
        let clipboard = ClipboardClient(client: app)
        let control = try TestClient(socket: server.socket)
        let manager = try control.bind("ext_data_control_manager_v1", tactile_ext_data_control_manager_v1_interface())
        let heard = Heard()
        let me = Unmanaged.passUnretained(heard).toOpaque()
        let device = try #require(ext_data_control_manager_v1_get_data_device(manager, control.seat))
        ext_data_control_device_v1_add_listener(device, Self.deviceListener, me)
        try control.roundtrip()
        #expect(heard.events == ["selection none", "primary none"])

        clipboard.copy("app text", as: Self.text, client: app)
        try app.roundtrip()
        try control.roundtrip()
        #expect(heard.events.last == "selection \(Self.text)")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        ext_data_control_offer_v1_receive(heard.offers["clipboard"], Self.text, fds[1])
        close(fds[1])
        try control.roundtrip()
        try app.roundtrip()
        #expect(Self.readAll(fds[0]) == "app text", "read without keyboard focus")

        heard.text = "control text"
        let source = try #require(ext_data_control_manager_v1_create_data_source(manager))
        ext_data_control_source_v1_add_listener(source, Self.sourceListener, me)
        ext_data_control_source_v1_offer(source, "text/plain")
        ext_data_control_device_v1_set_selection(device, source)
        try control.roundtrip()
        try app.roundtrip()
        let fd = try #require(clipboard.paste(as: "text/plain"), "the app was offered the control's text")
        try app.roundtrip()
        try control.roundtrip()
        #expect(Self.readAll(fd) == "control text")

        clipboard.copy("app again", as: Self.text, client: app)
        try app.roundtrip()
        try control.roundtrip()
        #expect(heard.events.suffix(2) == ["cancelled", "selection \(Self.text)"] || heard.events.suffix(2) == ["selection \(Self.text)", "cancelled"], "\(heard.events)")
        // A source serves once; a type after it was set is an error too.
        ext_data_control_device_v1_set_selection(device, source)
        #expect(throws: ClientError.self) { try control.roundtrip() }
        #expect(control.lastError == "ext_data_control_device_v1#\(control.id(device)): 1")
    }

    @Test func aTypeOfferedAfterTheSourceWasSetIsAnError() throws {
        var configuration = ServerConfiguration()
        configuration.privileges = .everyone
        let server = try TestServer(configuration)
        let control = try TestClient(socket: server.socket)
        let manager = try control.bind("ext_data_control_manager_v1", tactile_ext_data_control_manager_v1_interface())
        let device = try #require(ext_data_control_manager_v1_get_data_device(manager, control.seat))
        let source = try #require(ext_data_control_manager_v1_create_data_source(manager))
        ext_data_control_source_v1_offer(source, "text/plain")
        ext_data_control_device_v1_set_primary_selection(device, source)
        ext_data_control_source_v1_offer(source, "text/html")
        #expect(throws: ClientError.self) { try control.roundtrip() }
        #expect(control.lastError == "ext_data_control_source_v1#\(control.id(source)): 1")
    }
}
