import GestureConfiguration
import CWaylandClient
import Foundation
import Responder
@testable import TactileTestSupport
import TactileServer
import TactileWayland
import Testing
import WaylandProtocols

/// X11 apps under Tactile: real Xwayland, started by the server as `tactile serve` starts it,
/// real X clients (xterm, xinput, xwininfo, and our XCB probe), and the window manager in
/// between. Each test runs its own server on an X display of its own.
@Suite(.serialized) struct XwaylandTests {
    /// The products SwiftPM built beside this test bundle: the X11 probe, and `tactile` (for
    /// `tactile inspect`), its links resolved as the privilege policy reads executables.
    static var probe: String { product("TactileX11Probe") }
    static var tactile: String { product("tactile") }

    static func product(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).resolvingSymlinksInPath().path
    }

    /// A tap reaches an X client as XI 2.2 touch at its root coordinates; an edge swipe that
    /// wins ends the X client's touch (wl_touch.cancel becomes XI_TouchEnd) while the finger
    /// is still down, and X makes no click of it.
    @Test func aTapAndACancelledSwipeReachXClientsAsXI2Touch() throws {
        var configuration = ServerConfiguration(kioskMode: true)
        configuration.gestures = [GestureBinding(name: "back", recognizer: EdgeSwipe(edge: .left))]
        let server = try TestServer(configuration, xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let xterm = try Self.x(["xterm"], on: server)
        defer { xterm.stop() }
        try Self.waitForColour(0xff_ffff, at: 640, 400, client: client)
        let xinput = try Self.x(["xinput", "test-xi2", "--root"], on: server)
        defer { xinput.stop() }
        // Listening once it reports a motion of the pointer.
        try xinput.waitUntil("(Motion)", within: 20) {
            try client.inject { tactile_test_input_v1_pointer_motion($0, f(Double.random(in: 500...700)), f(400)) }
        }

        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(300), f(200))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let tap = XI2Events(try xinput.waitForOutput(containing: "(TouchEnd)", within: 10))
        let tapped = try #require(tap.first("TouchBegin"), "\(tap)")
        #expect(tapped.isNear(300, 200), "the tap at its root coordinates: \(tapped)")
        #expect(tap.first("TouchEnd")?.detail == tapped.detail, "\(tap)")

        // The finger stays down: only the cancel can end the X touch.
        try Self.swipeFromTheLeftEdge(holding: 2, client: client)
        let swipe = XI2Events(try xinput.waitForOutput(containing: "(TouchEnd)", after: "(TouchEnd)", within: 10))
        let swiped = try #require(swipe.all("TouchBegin").last, "\(swipe)")
        #expect(swiped.isNear(3, 400) && swiped.detail != tapped.detail, "the swipe's touch began at the edge: \(swiped)")
        #expect(swipe.all("TouchEnd").last?.detail == swiped.detail, "the cancel ended it, the finger still down: \(swipe)")
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 2)
            tactile_test_input_v1_touch_frame(input)
        }
        try client.roundtrip()
        usleep(300_000)
        let log = XI2Events(try xinput.waitForOutput(containing: "(TouchEnd)"))
        #expect(log.all("ButtonPress").isEmpty, "no click was made of the touches: \(log)")
        #expect(!log.all("TouchUpdate").contains { $0.detail == swiped.detail && $0.x >= 199 }, "nothing of the swipe after the gesture won: \(log)")
    }

    /// touch.secondary-click on an X app (xev, which selects no touch events): Xwayland binds
    /// wl_touch for every X app, so while the secondary click is on its touches take the
    /// pointer emulation instead. A finger held still is button 3, pressed and released, and
    /// no button 1; a quick tap after it is button 1.
    @Test(arguments: [true, false])
    func aLongPressOnAnXAppIsButton3AndNoButton1(kiosk: Bool) throws {
        var configuration = ServerConfiguration(kioskMode: kiosk)
        configuration.routingPolicy.secondaryClick = .milliseconds(400)
        let server = try TestServer(configuration, xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let xev = try Self.x(["xev", "-event", "button"], on: server)
        defer { xev.stop() }
        // Full screen in a kiosk; on a desktop at its own size, the first window at the corner.
        _ = try Self.waitForWindow("Event Tester", geometry: kiosk ? "1280x800+0+0" : "+0+0", on: server)
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(60), f(50))
            tactile_test_input_v1_touch_frame(input)
        }
        usleep(700_000)
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        try Self.tap(at: 80, 50, client: client)
        // All four lines: the first "button 1," is the press, and its release may still be
        // on its way out of xev.
        let output = try xev.waitForOutput(containing: ", button ", times: 4, within: 10)
        let buttons = output.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: ", button ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(buttons == [3, 3, 1, 1], "\(output)")
    }

    /// Kiosk: xterm fills the output, takes keys typed through test input, and the
    /// close-focused gesture closes it through WM_DELETE_WINDOW.
    @Test func xtermFillsTheKioskOutputTakesKeysAndClosesOnCloseFocused() throws {
        var configuration = ServerConfiguration(kioskMode: true)
        configuration.gestures = [GestureBinding(name: "close", recognizer: EdgeSwipe(edge: .top), action: .closeFocused)]
        configuration.offersInspector = true
        // The inspector is privileged: granted to the built `tactile`, which the test runs.
        configuration.privileges.grants[.inspector] = .only(started: true, executables: [Self.tactile])
        let server = try TestServer(configuration, actions: true, xwayland: .eager)
        let client = try TestClient(socket: server.socket)
        let typed = TestServer.runtimeDirectory + "/xterm-\(UUID().uuidString.prefix(8))"
        let xterm = try Self.x(["xterm", "-T", "kiosk-xterm", "-e", "sh", "-c", "read line; echo \"$line\" > \(typed); sleep 60"], on: server)
        defer { xterm.stop() }
        // xterm fills the 1280x800 output.
        _ = try Self.waitForWindow("kiosk-xterm", geometry: "1280x800+0+0", on: server)
        try Self.waitForColour(0xff_ffff, at: 1200, 700, client: client)
        // The inspector names the X window by its class, title and process.
        let scene = try runProcess(Self.tactile, ["inspect", "--socket", server.socket], environment: ["XDG_RUNTIME_DIR": TestServer.runtimeDirectory]).output
        #expect(scene.contains("role=xwayland app_id=XTerm title=\"kiosk-xterm\" pid=\(xterm.pid) at=0,0 size=1280x800"), "\(scene)")

        try Self.typeHiAndEnter(client: client)
        #expect(Self.waitForFile(typed) == "hi\n")

        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 1, f(640), f(3))
            tactile_test_input_v1_touch_motion(input, 1, f(640), f(200))
            tactile_test_input_v1_touch_up(input, 1)
            tactile_test_input_v1_touch_frame(input)
        }
        let closed = Date().addingTimeInterval(10)
        while xterm.isRunning, Date() < closed { usleep(50_000) }
        #expect(!xterm.isRunning, "xterm closed on WM_DELETE_WINDOW")
    }

    /// EWMH requests of X clients, not kiosk: xterm -fullscreen (_NET_WM_STATE) fills the
    /// output; xdotool's windowactivate (_NET_ACTIVE_WINDOW) raises and focuses the other
    /// xterm, which takes the keys; windowminimize (WM_CHANGE_STATE) hides it, and X hears
    /// _NET_WM_STATE_HIDDEN.
    @Test func fullscreenActivateAndMinimizeRequestsOfXClientsAreHonoured() throws {
        let server = try TestServer(xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let typed = TestServer.runtimeDirectory + "/activated-\(UUID().uuidString.prefix(8))"
        let first = try Self.x(["xterm", "-T", "first-xterm", "-e", "sh", "-c", "read line; echo \"$line\" > \(typed); sleep 60"], on: server)
        defer { first.stop() }
        let firstLine = try Self.waitForWindow("first-xterm", on: server)
        let second = try Self.x(["xterm", "-T", "second-xterm", "-fullscreen"], on: server)
        defer { second.stop() }
        // Fullscreen fills the output.
        _ = try Self.waitForWindow("second-xterm", geometry: "1280x800+0+0", on: server)

        let id = String(firstLine.split(separator: " ").first ?? "")
        let display = ["DISPLAY": server.x11Display ?? ""]
        _ = try runProcess("/usr/bin/xdotool", ["windowactivate", id], environment: display)
        try client.roundtrip()
        usleep(300_000)
        try Self.typeHiAndEnter(client: client)
        #expect(Self.waitForFile(typed) == "hi\n", "the activated xterm took the keys")

        _ = try runProcess("/usr/bin/xdotool", ["windowminimize", id], environment: display)
        var state = ""
        let hiddenBy = Date().addingTimeInterval(10)
        while !state.contains("_NET_WM_STATE_HIDDEN"), Date() < hiddenBy {
            usleep(100_000)
            state = try runProcess("/usr/bin/xprop", ["-id", id, "_NET_WM_STATE"], environment: display).output
        }
        #expect(state.contains("_NET_WM_STATE_HIDDEN"), "\(state)")
    }

    /// Not kiosk: the probe's 400x300 window where the cascade puts the first window; its
    /// override-redirect menu shows where X put it, above the window, and takes the tap
    /// under it; the window keeps the taps elsewhere.
    @Test func anOverrideRedirectMenuOpensAboveItsWindowAndTakesTheTapUnderIt() throws {
        let server = try TestServer(xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let probe = try Self.x([Self.probe, "menu", "150", "120"], on: server)
        defer { probe.stop() }
        try probe.waitForOutput(containing: "mapped toplevel", within: 20)
        try Self.waitForColour(0x00_00ff, at: 50, 50, client: client)
        try Self.tap(at: 50, 50, client: client)
        try probe.waitForOutput(containing: "menu mapped")
        try Self.waitForColour(0xff_0000, at: 160, 130, client: client)
        #expect(try ScreencopyCapture.copied(client: client, waitingForDamage: false).colour(at: 380, 200) == 0x00_00ff, "the window beside the menu")
        try Self.tap(at: 160, 130, client: client)
        let log = try probe.waitForOutput(containing: "press menu")
        #expect(log.components(separatedBy: "press toplevel").count == 2, "one press on the window, the other on the menu: \(log)")
    }

    /// Xwayland killed: Tactile and a Wayland client go on; the next X client starts a new
    /// Xwayland, whose window is managed as before.
    @Test func killingXwaylandLeavesTactileAndWaylandClientsRunning() throws {
        let server = try TestServer(xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let window = try client.toplevel(width: 200, height: 200, at: (600, 300))
        let first = try Self.x(["xterm", "-T", "first-xterm"], on: server)
        defer { first.stop() }
        _ = try Self.waitForWindow("first-xterm", on: server)
        let xwayland = try Self.xwaylandPID(on: server)
        kill(xwayland, SIGKILL)
        let gone = Date().addingTimeInterval(10)
        while first.isRunning, Date() < gone { usleep(50_000) }
        #expect(!first.isRunning, "xterm lost its X server")

        try client.roundtrip()
        #expect(try client.surfaceHit(at: 700, 400) == client.id(window.surface), "the Wayland window is still there")
        let second = try Self.x(["xterm", "-T", "second-xterm"], on: server)
        defer { second.stop() }
        _ = try Self.waitForWindow("second-xterm", on: server)
        #expect(try Self.xwaylandPID(on: server) != xwayland, "a new Xwayland")
    }

    /// A hostile X client (random windows, sizes, properties and client messages, dead
    /// windows named, forged WL_SURFACE_IDs), seeded: Tactile neither crashes nor stalls,
    /// and an X app started after it is managed and shown.
    @Test(.timeLimit(.minutes(3)))
    func aHostileXClientNeitherCrashesNorStallsTactile() throws {
        // Kiosk: the window after the fuzz fills the output, wherever the cascade would be.
        let server = try TestServer(ServerConfiguration(kioskMode: true), xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        for seed in ["20261127", "7"] {
            let fuzz = try Self.x([Self.probe, "fuzz", seed, "2000"], on: server)
            defer { fuzz.stop() }
            _ = try? fuzz.waitForExit()
            try client.roundtrip()
        }
        let probe = try Self.x([Self.probe, "menu", "150", "120"], on: server)
        defer { probe.stop() }
        try probe.waitForOutput(containing: "mapped toplevel", within: 20)
        try Self.waitForColour(0x00_00ff, at: 640, 400, client: client)
    }

    /// The clipboard both ways, xterm told to select into CLIPBOARD: a word double-clicked
    /// in xterm is pasted by a Wayland client, and a Wayland client's copy is pasted into
    /// xterm with a middle click.
    @Test func theClipboardGoesBothWaysBetweenXtermAndAWaylandClient() throws {
        let server = try TestServer(xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let clipboard = ClipboardClient(client: client)
        let pasted = TestServer.runtimeDirectory + "/pasted-\(UUID().uuidString.prefix(8))"
        let xterm = try Self.x(["xterm", "-T", "clipboard-xterm", "-xrm", "XTerm*selectToClipboard: true", "-e", "sh", "-c",
                                Self.readPaste(of: "from-wayland", into: pasted)], on: server)
        defer { xterm.stop() }
        _ = try Self.waitForWindow("clipboard-xterm", on: server)
        try Self.waitForColour(0xff_ffff, at: 200, 100, client: client)
        let window = try client.toplevel(width: 200, height: 200, at: (800, 400))

        // A double click on the word: xterm selects it.
        try Self.doubleClickTheFirstWord(client: client)
        // The Wayland window takes focus, and is offered xterm's selection.
        #expect(try client.surfaceHit(at: 900, 500) == client.id(window.surface))
        try Self.dispatch(client) { clipboard.selectionTypes.contains("text/plain;charset=utf-8") }
        let fd = try #require(clipboard.paste(as: "text/plain;charset=utf-8"), "offered: \(clipboard.selectionTypes)")
        #expect(try Self.readToEnd(fd, client: client) == "tactilecopied")

        // The reverse: the Wayland client copies, a middle click in xterm pastes (once the
        // bridge owns CLIPBOARD in X: before, xterm would paste its own word).
        let xtermOwned = try Self.selectionOwner("CLIPBOARD", on: server)
        clipboard.copy("from-wayland", as: "text/plain;charset=utf-8", client: client)
        try client.roundtrip()
        try Self.waitForOwner("CLIPBOARD", other: xtermOwned, on: server)
        #expect(try Self.middleClickPasteIntoXterm(client: client, line: pasted) == "from-wayland\n")
    }

    /// A GTK 3 app on X11 (GDK_BACKEND=x11, through PyGObject) gets touch as GTK touch
    /// events, from XI2, at the finger's root coordinates.
    @Test func aGTK3AppOnX11GetsTouchEvents() throws {
        let server = try TestServer(ServerConfiguration(kioskMode: true), xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let gtk = try Self.x(["/usr/bin/python3", "-c", Self.gtkTouchApp], on: server, environment: ["GDK_BACKEND": "x11"])
        defer { gtk.stop() }
        try gtk.waitForOutput(containing: "shown", within: 30)
        _ = try Self.waitForWindow("gtk-touch", on: server)
        // Tapped until GTK has its window on screen and says so.
        try gtk.waitUntil("touch-end", within: 20) { try Self.tap(at: 300, 200, client: client) }
        let log = gtk.outputSoFar
        #expect(log.contains("touch-begin 300 200"), "\(log)")
        #expect(log.contains("touch-end 300 200"), "\(log)")
    }

    /// Chromium on X11 (--ozone-platform=x11): a tap is a DOM touchstart and touchend at the
    /// finger; a winning edge swipe ends its touch while the finger is down (X has no touch
    /// cancel: Xwayland ends the touch, and Chromium says touchend), and makes no click.
    @Test func chromiumOnX11GetsTouchAndAWinningSwipeEndsIt() throws {
        var configuration = ServerConfiguration(kioskMode: true)
        configuration.gestures = [GestureBinding(name: "back", recognizer: EdgeSwipe(edge: .left))]
        let server = try TestServer(configuration, xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let profile = NSTemporaryDirectory() + "tactile-chromium-x11-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let page = "data:text/html,<body style='margin:0;background:%2300ff00;height:100vh'><script>"
            + "for (const t of ['touchstart','touchend','touchcancel','click']) document.addEventListener(t, e => { const p = e.changedTouches ? e.changedTouches[0] : e;"
            + " console.log(t + ' ' + Math.round(p.screenX) + ' ' + Math.round(p.screenY)); }, {passive: false});</script></body>"
        let chromium = try Self.x(["chromium", "--ozone-platform=x11", "--no-sandbox", "--disable-gpu", "--no-first-run", "--touch-events=enabled",
                                   "--enable-logging=stderr", "--v=0", "--user-data-dir=\(profile)", page], on: server)
        defer { chromium.stop() }
        try Self.waitForColour(0x00_ff00, at: 640, 400, client: client, within: 60)
        try chromium.waitUntil("\"touchend", within: 20) { try Self.tap(at: 300, 200, client: client) }
        let tap = Self.domEvents(chromium.outputSoFar)
        #expect(tap.contains { $0.name == "touchstart" && abs($0.x - 300) <= 1 && abs($0.y - 200) <= 1 }, "\(tap)")
        let ends = tap.filter { $0.name == "touchend" }.count

        try Self.swipeFromTheLeftEdge(holding: 2, client: client)
        // The finger is still down: only the gesture's win ends the touch.
        try chromium.waitForOutput(containing: "\"touchend", times: ends + 1, within: 20)
        try client.inject { input in
            tactile_test_input_v1_touch_up(input, 2)
            tactile_test_input_v1_touch_frame(input)
        }
        try client.roundtrip()
        usleep(500_000)
        let all = Self.domEvents(chromium.outputSoFar)
        let swipe = all.drop { !($0.name == "touchstart" && $0.x <= 4) }
        #expect(swipe.first.map { abs($0.y - 400) <= 1 } == true, "the swipe's touch began at the edge: \(all)")
        #expect(swipe.contains { $0.name == "touchend" } && !swipe.contains { $0.name == "click" }, "ended, and no click made of it: \(all)")
        #expect(!swipe.contains { $0.x >= 199 }, "nothing of the swipe after the gesture won: \(all)")
    }

    /// The page's console lines (`"NAME X Y"`, as Chromium logs them to standard error).
    static func domEvents(_ log: String) -> [(name: String, x: Int, y: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard line.contains(":CONSOLE"), let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else { return nil }
            let words = line[line.index(after: open)..<close].split(separator: " ")
            guard words.count == 3, let x = Int(words[1]), let y = Int(words[2]) else { return nil }
            return (String(words[0]), x, y)
        }
    }

    /// The primary selection both ways, xterm's selection being PRIMARY: a word double-clicked
    /// in xterm is offered to a Wayland client (offered to every client, focused or not) and
    /// read, and a Wayland client's primary selection is pasted into xterm with a middle click.
    @Test func thePrimarySelectionGoesBothWaysBetweenXtermAndAWaylandClient() throws {
        let server = try TestServer(xwayland: .lazy)
        let client = try TestClient(socket: server.socket)
        let primary = PrimarySelectionClient(client: client)
        let pasted = TestServer.runtimeDirectory + "/primary-\(UUID().uuidString.prefix(8))"
        let xterm = try Self.x(["xterm", "-T", "primary-xterm", "-e", "sh", "-c", Self.readPaste(of: "from-wayland-primary", into: pasted)],
                               on: server)
        defer { xterm.stop() }
        _ = try Self.waitForWindow("primary-xterm", on: server)
        try Self.waitForColour(0xff_ffff, at: 200, 100, client: client)

        try Self.doubleClickTheFirstWord(client: client)
        try Self.dispatch(client) { primary.selectionTypes.contains("text/plain;charset=utf-8") }
        let fd = try #require(primary.paste(as: "text/plain;charset=utf-8"), "offered: \(primary.selectionTypes)")
        #expect(try Self.readToEnd(fd, client: client) == "tactilecopied")

        let xtermOwned = try Self.selectionOwner("PRIMARY", on: server)
        primary.select("from-wayland-primary", as: "text/plain;charset=utf-8", client: client)
        try client.roundtrip()
        try Self.waitForOwner("PRIMARY", other: xtermOwned, on: server)
        #expect(try Self.middleClickPasteIntoXterm(client: client, line: pasted) == "from-wayland-primary\n")
    }

    static let gtkTouchApp = """
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk, Gdk
        window = Gtk.Window(title="gtk-touch")
        area = Gtk.DrawingArea()
        area.add_events(Gdk.EventMask.TOUCH_MASK)
        def touched(widget, event):
            print(event.type.value_nick, round(event.x_root), round(event.y_root), flush=True)
        area.connect("touch-event", touched)
        window.add(area)
        window.connect("destroy", Gtk.main_quit)
        window.show_all()
        print("shown", flush=True)
        Gtk.main()
        """

    // MARK: Helpers

    /// An X client on the server's X display.
    static func x(_ command: [String], on server: TestServer, environment: [String: String] = [:]) throws -> ClientProcess {
        let display = try #require(server.x11Display)
        return try ClientProcess(command, socket: server.socket, environment: environment.merging(["DISPLAY": display]) { $1 })
    }

    /// xwininfo's line for the window titled `title`, once X has it (with `geometry`, such
    /// as `1280x800+0+0`, once it has that: a window is named before it is placed).
    static func waitForWindow(_ title: String, geometry: String = "", on server: TestServer, within seconds: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var tree = ""
        while Date() < deadline {
            tree = (try? runProcess("/usr/bin/xwininfo", ["-root", "-tree"], environment: ["DISPLAY": server.x11Display ?? ""]).output) ?? ""
            if let line = tree.split(separator: "\n").first(where: { $0.contains("\"\(title)\"") && (geometry.isEmpty || $0.contains(geometry)) }) { return String(line) }
            usleep(100_000)
        }
        throw ClientProcess.Failure(description: "no X window \"\(title)\" \(geometry) within \(seconds) s:\n\(tree)")
    }

    static func waitForColour(_ colour: UInt32, at x: Int, _ y: Int, client: TestClient, within seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var seen: UInt32 = 0
        while Date() < deadline {
            seen = try ScreencopyCapture.copied(client: client, waitingForDamage: false).colour(at: x, y)
            if seen == colour { return }
            usleep(100_000)
        }
        throw ClientProcess.Failure(description: "\(x),\(y) is 0x\(String(seen, radix: 16)), not 0x\(String(colour, radix: 16)), after \(seconds) s")
    }

    /// The X window owning `selection` (PRIMARY, CLIPBOARD), as X says now.
    static func selectionOwner(_ selection: String, on server: TestServer) throws -> String {
        try runProcess(probe, ["owner", selection], environment: ["DISPLAY": server.x11Display ?? ""]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until X names an owner of `selection` other than `previous`: the window manager's
    /// bridge took over a Wayland client's selection (its request reaches X on a connection of
    /// its own, so a click sent through Wayland right after could overtake it).
    static func waitForOwner(_ selection: String, other previous: String, on server: TestServer, within seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var owner = previous
        while Date() < deadline {
            owner = try selectionOwner(selection, on: server)
            if owner != previous, owner != "0x0" { return }
            usleep(50_000)
        }
        throw ClientProcess.Failure(description: "\(selection) is still owned by \(owner) after \(seconds) s")
    }

    /// A double click on the first word of xterm's first line, once drawn: xterm selects it.
    static func doubleClickTheFirstWord(client: TestClient) throws {
        // xterm's white window shows before its shell's first line: a double click on the
        // blank line selects nothing (seen under a loaded full tier).
        let deadline = Date().addingTimeInterval(20)
        while true {
            let shot = try ScreencopyCapture.copied(client: client, waitingForDamage: false)
            if (4..<60).contains(where: { x in (2..<14).contains { y in shot.colour(at: x, y) != 0xff_ffff } }) { break }
            guard Date() < deadline else { throw ClientProcess.Failure(description: "xterm's first line is still blank after 20 s") }
            usleep(100_000)
        }
        try client.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(20), f(8))
            for _ in 0..<2 {
                tactile_test_input_v1_pointer_button(input, 0x110, 1)
                tactile_test_input_v1_pointer_button(input, 0x110, 0)
            }
        }
    }

    /// A middle click in xterm (at 100, 100) pastes its selection, and Enter ends the line
    /// xterm's shell reads and writes to `line`: the file's text, once written.
    static func middleClickPasteIntoXterm(client: TestClient, line: String) throws -> String? {
        try client.inject { input in
            tactile_test_input_v1_pointer_motion(input, f(100), f(100))
            tactile_test_input_v1_pointer_button(input, 0x112, 1)
            tactile_test_input_v1_pointer_button(input, 0x112, 0)
        }
        // The Wayland source answers xterm's request through the bridge while it is dispatched:
        // round trips until xterm's shell has read the pasted text (at most 10 s).
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: line), Date() < deadline {
            try client.roundtrip()
            usleep(50_000)
        }
        return waitForFile(line)
    }

    /// xterm's shell for a paste test: prints the word to copy, then reads as many characters
    /// as `text` has, without waiting for Enter (the terminal out of canonical mode), and
    /// writes them to `path` once all came, however long the paste took to arrive.
    static func readPaste(of text: String, into path: String) -> String {
        "echo tactilecopied; stty -icanon; line=$(head -c \(text.utf8.count)); echo \"$line\" > \(path).part && mv \(path).part \(path); sleep 60"
    }

    /// h, i, Enter, typed to the focused window.
    static func typeHiAndEnter(client: TestClient) throws {
        try client.inject { input in
            for key: UInt32 in [35, 23, 28] {
                tactile_test_input_v1_key(input, key, 1)
                tactile_test_input_v1_key(input, key, 0)
            }
        }
    }

    /// The file's text once something wrote it (a shell in xterm), or nil after 10 s.
    static func waitForFile(_ path: String) -> String? {
        let deadline = Date().addingTimeInterval(10)
        while (try? String(contentsOfFile: path, encoding: .utf8)) == nil, Date() < deadline { usleep(50_000) }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// Round trips every 50 ms until `done` (at most 10 s): the client hears what the bridge
    /// offers it.
    static func dispatch(_ client: TestClient, until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !done(), Date() < deadline {
            try client.roundtrip()
            usleep(50_000)
        }
    }

    /// What a selection's source wrote into `fd` (closed after), the client dispatched first.
    static func readToEnd(_ fd: Int32, client: TestClient) throws -> String {
        defer { close(fd) }
        try client.roundtrip()
        var text = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 256)
        while case let count = read(fd, &chunk, chunk.count), count > 0 { text += chunk.prefix(count) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Touch `id` down at (3, 400) and across to 200, where it stays: past the edge swipe's
    /// 80 px, so the gesture wins with the finger still down.
    static func swipeFromTheLeftEdge(holding id: Int32, client: TestClient) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, id, f(3), f(400))
            tactile_test_input_v1_touch_frame(input)
            for x in [30.0, 60, 120, 200] {
                tactile_test_input_v1_touch_motion(input, id, f(x), f(400))
                tactile_test_input_v1_touch_frame(input)
            }
        }
    }

    static func tap(at x: Double, _ y: Double, client: TestClient) throws {
        try client.inject { input in
            tactile_test_input_v1_touch_down(input, 9, f(x), f(y))
            tactile_test_input_v1_touch_frame(input)
            tactile_test_input_v1_touch_up(input, 9)
            tactile_test_input_v1_touch_frame(input)
        }
    }


    static func xwaylandPID(on server: TestServer) throws -> Int32 {
        let display = try #require(server.x11Display)
        let found = try runProcess("/usr/bin/pgrep", ["-f", "^Xwayland \(display) "])
        return try #require(Int32(found.output.split(separator: "\n").first ?? ""), "no Xwayland on \(display)")
    }
}

/// `xinput test-xi2`'s events: each one's type name, detail (the touch id) and root
/// coordinates (Xwayland's fixed-point turns 400 into 399.99: compared within a tenth).
struct XI2Events: CustomStringConvertible {
    struct Event: CustomStringConvertible {
        let type: String
        var detail = -1
        var x = Double.nan, y = Double.nan

        func isNear(_ x: Double, _ y: Double) -> Bool { abs(self.x - x) < 0.1 && abs(self.y - y) < 0.1 }
        var description: String { "\(type) \(detail) at \(x),\(y)" }
    }

    let events: [Event]

    init(_ log: String) {
        var events: [Event] = []
        for line in log.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("EVENT type"), let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") {
                events.append(Event(type: String(line[line.index(after: open)..<close])))
            } else if line.hasPrefix("detail:"), !events.isEmpty {
                events[events.count - 1].detail = Int(line.dropFirst(7).trimmingCharacters(in: .whitespaces)) ?? -1
            } else if line.hasPrefix("root:"), !events.isEmpty {
                let numbers = line.dropFirst(5).split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                if numbers.count == 2 { (events[events.count - 1].x, events[events.count - 1].y) = (numbers[0], numbers[1]) }
            }
        }
        self.events = events
    }

    func all(_ type: String) -> [Event] { events.filter { $0.type == type } }
    func first(_ type: String) -> Event? { events.first { $0.type == type } }
    var description: String { events.map(\.description).joined(separator: "; ") }
}
