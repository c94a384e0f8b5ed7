import BenchmarkScenes
import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Random input through the test protocol while real clients come and go, map and destroy
/// windows (issue 12). Each client checks what it receives as a client would: no touch event
/// without its down, no second down for a touch it holds, no down or enter on a surface
/// that is not its own, and once every finger is up, no touch left down. Pens and pads
/// (issue 31) are in the stream too, nonsense values among them, and half the clients have
/// a tablet seat: their tools' proximity and tips pair up, and a pad is heard only once it
/// entered, and leaves only what it entered. A client the server
/// sends something it cannot parse (another client's object) would fail its roundtrip.
///
/// `TACTILE_INPUT_FUZZ_EVENTS` sets the number of input events (default 100,000); the
/// process's resident memory at a tenth of the run and at its end is printed.
@Suite struct InputFuzzTests {
    @Test func randomInputWithChurningClientsKeepsEveryClientsTouchesWhole() throws {
        let events = ProcessInfo.processInfo.environment["TACTILE_INPUT_FUZZ_EVENTS"].flatMap(Int.init) ?? 100_000
        let server = try TestServer()
        var fuzz = try WireFuzz(socket: server.socket, seed: 12)
        var sent = 0
        var residentAtATenth: Int?
        while sent < events {
            sent += try fuzz.batch()
            fuzz.churn()
            if residentAtATenth == nil, sent >= events / 10 { residentAtATenth = residentKiB() }
        }
        print("input fuzz: \(sent) events, \(fuzz.downs) downs, \(fuzz.penProximities) pen proximities, \(fuzz.padButtons) pad buttons delivered, resident \(residentAtATenth ?? 0) KiB at a tenth, \(residentKiB()) KiB at the end")
        try fuzz.liftEverything()
        #expect(fuzz.violations == [])
        #expect(fuzz.downs > events / 100, "the stream reached clients' surfaces")
        #expect(fuzz.penProximities > events / 1000 && fuzz.padButtons > events / 1000, "pens and pads reached tablet clients")
        #expect(fuzz.clients.allSatisfy { $0.held.isEmpty }, "a touch is stuck")
    }
}

/// This process's resident memory (the server runs in it), from /proc.
private func residentKiB() -> Int {
    let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(getpagesize()) / 1024 : 0
}

/// A client of the fuzz with the windows it mapped and the touches it holds.
final class FuzzClient {
    let client: TestClient
    var windows: [Window] = []
    /// Every surface the client ever made (events for a destroyed one come as id 0).
    var surfaces: Set<UInt32> = [0]
    var held: Set<Int32> = []
    /// What its tablet seat heard, for a client with one; tools in proximity and tips down
    /// (the fuzz's two pens), pads entered (its two pads).
    var tablet: TabletSeatLog?
    var near = 0, tips = 0, padsEntered = 0

    init(socket: String, devices: Set<String>, tablet: Bool) throws {
        client = try TestClient(socket: socket, devices: devices)
        if tablet { self.tablet = try TabletSeatLog(of: client) }
    }
}

struct WireFuzz {
    let socket: String
    var rng: SplitMix64
    let driver: TestClient
    var clients: [FuzzClient] = []
    var fingers: Set<Int32> = []
    var violations: [String] = []
    var downs = 0
    /// Pen proximities and pad buttons that tablet clients heard.
    var penProximities = 0, padButtons = 0

    init(socket: String, seed: UInt64) throws {
        self.socket = socket
        rng = SplitMix64(state: seed)
        driver = try TestClient(socket: socket, devices: [])
        for _ in 0..<4 { try connect() }
    }

    /// Up to 64 input events, then every client reads and checks what it got.
    mutating func batch() throws -> Int {
        let count = 1 + rng.draw(64)
        let input = driver.testInput!
        for _ in 0..<count {
            let (x, y) = (f(Double(rng.draw(5000)) / 4), f(Double(rng.draw(3200)) / 4))
            let id = Int32(rng.draw(5))
            switch rng.draw(100) {
            case 0..<28 where fingers.contains(id): tactile_test_input_v1_touch_motion(input, id, x, y)
            case 0..<28: tactile_test_input_v1_touch_down(input, id, x, y); fingers.insert(id)
            case 28..<39: tactile_test_input_v1_touch_up(input, id); fingers.remove(id)
            case 39..<42: tactile_test_input_v1_touch_cancel(input, id); fingers.remove(id)
            case 42..<70: tactile_test_input_v1_touch_frame(input)
            case 70..<84: tactile_test_input_v1_pointer_motion(input, x, y)
            case 84..<89: tactile_test_input_v1_pointer_button(input, 0x110, UInt32(rng.draw(2)))
            case 89..<93: tactile_test_input_v1_key(input, UInt32(30 + rng.draw(3)), UInt32(rng.draw(2)))
            case 93..<98: pen(input, x, y)
            default: pad(input)
            }
        }
        try driver.roundtrip()
        try checkAll()
        return count
    }

    /// One of two pens, in any order a hostile source might send: the core refuses what
    /// makes no sense.
    private mutating func pen(_ input: OpaquePointer, _ x: wl_fixed_t, _ y: wl_fixed_t) {
        let pen = Int32(1 + rng.draw(2))
        switch rng.draw(10) {
        case 0, 1: tactile_test_input_v1_pen_proximity_in(input, pen, x, y)
        case 2: tactile_test_input_v1_pen_proximity_out(input, pen)
        case 3, 4: tactile_test_input_v1_pen_tip(input, pen, UInt32(rng.draw(2)))
        case 5: tactile_test_input_v1_pen_button(input, pen, 0x14b, UInt32(rng.draw(2)))
        default:
            let pressure = [f(0.5), f(-3), f(1e6), wl_fixed_t.max, wl_fixed_t.min][rng.draw(5)]
            tactile_test_input_v1_pen_motion(input, pen, x, y, pressure, f(Double(rng.draw(181)) - 90), f(0))
        }
    }

    /// One of two pads: buttons the pad has and those it has not, rings and strips at any
    /// value, and let go.
    private mutating func pad(_ input: OpaquePointer) {
        let pad = Int32(1 + rng.draw(2))
        let value = [f(0.5), f(-400), f(1e6), wl_fixed_t.max, wl_fixed_t.min][rng.draw(5)]
        switch rng.draw(3) {
        case 0: tactile_test_input_v1_pad_button(input, pad, UInt32(rng.draw(6)), UInt32(rng.draw(2)))
        case 1: tactile_test_input_v1_pad_ring(input, pad, UInt32(rng.draw(2)), value, UInt32(rng.draw(2)))
        default: tactile_test_input_v1_pad_strip(input, pad, UInt32(rng.draw(2)), value, UInt32(rng.draw(2)))
        }
    }

    /// Now and then a client maps or destroys a window, or goes away and another comes.
    mutating func churn() {
        guard rng.draw(4) == 0, !clients.isEmpty else { return }
        let k = rng.draw(clients.count)
        do {
            switch rng.draw(10) {
            case 0..<4: try map(on: clients[k])
            case 4..<7: destroyWindow(of: clients[k])
            default:
                clients.remove(at: k)
                try connect()
            }
        } catch {
            violations.append("churn: \(error)")
        }
    }

    mutating func liftEverything() throws {
        for id in fingers.sorted() { tactile_test_input_v1_touch_up(driver.testInput!, id) }
        tactile_test_input_v1_touch_frame(driver.testInput!)
        fingers.removeAll()
        try driver.roundtrip()
        try checkAll()
    }

    private mutating func connect() throws {
        let kinds: [Set<String>] = [["touch", "pointer", "keyboard"], ["touch"], ["pointer", "keyboard"]]
        let client = try FuzzClient(socket: socket, devices: kinds[rng.draw(kinds.count)], tablet: rng.draw(2) == 0)
        clients.append(client)
        for _ in 0..<1 + rng.draw(2) { try map(on: client) }
    }

    private mutating func map(on fuzz: FuzzClient) throws {
        let at = (Int32(rng.draw(1100)), Int32(rng.draw(700)))
        let window = try fuzz.client.toplevel(width: Int32(50 + rng.draw(400)), height: Int32(50 + rng.draw(400)), at: at)
        fuzz.windows.append(window)
        fuzz.surfaces.insert(fuzz.client.id(window.surface))
    }

    private mutating func destroyWindow(of fuzz: FuzzClient) {
        guard !fuzz.windows.isEmpty else { return }
        let window = fuzz.windows.remove(at: rng.draw(fuzz.windows.count))
        xdg_toplevel_destroy(window.toplevel)
        xdg_surface_destroy(window.xdgSurface)
        wl_surface_destroy(window.surface)
    }

    private mutating func checkAll() throws {
        for (k, fuzz) in clients.enumerated() {
            do {
                try fuzz.client.roundtrip()
            } catch {
                violations.append("client \(k): \(error)")
                continue
            }
            for event in fuzz.client.take() { check(event, k, fuzz) }
            if let tablet = fuzz.tablet {
                for line in tablet.lines { check(tablet: line, k, fuzz) }
                tablet.lines.removeAll()
                tablet.surfaces.removeAll()
            }
        }
    }

    private mutating func check(tablet line: String, _ k: Int, _ fuzz: FuzzClient) {
        func fail(_ why: String) { violations.append("client \(k): tablet \(line): \(why)") }
        switch line {
        case "proximity_in": penProximities += 1; fuzz.near += 1; if fuzz.near > 2 { fail("more tools near than pens") }
        case "proximity_out": fuzz.near -= 1; if fuzz.near < 0 { fail("proximity_out without proximity_in") }
        case "down": fuzz.tips += 1; if fuzz.tips > fuzz.near { fail("down out of proximity") }
        case "up": fuzz.tips -= 1; if fuzz.tips < 0 { fail("up without a down") }
        // A pad on a surface that was destroyed enters the next one without a leave.
        case "pad enter": fuzz.padsEntered += 1
        case "pad leave": fuzz.padsEntered -= 1; if fuzz.padsEntered < 0 { fail("leave without an enter") }
        default:
            if line.hasPrefix("pad button ") { padButtons += 1 }
            if line.hasPrefix("pad button ") || line.hasPrefix("ring source") || line.hasPrefix("ring angle") || line.hasPrefix("strip position"),
               fuzz.padsEntered == 0 { fail("a pad not entered") }
        }
    }

    private mutating func check(_ event: Seen, _ k: Int, _ fuzz: FuzzClient) {
        func fail(_ why: String) { violations.append("client \(k): \(event): \(why)") }
        switch event {
        case .touchDown(let surface, let id, _, _):
            downs += 1
            if !fuzz.surfaces.contains(surface) { fail("not its surface") }
            if !fuzz.held.insert(id).inserted { fail("second down") }
        case .touchMotion(let id, _, _):
            if !fuzz.held.contains(id) { fail("motion without a down") }
        case .touchUp(let id):
            if fuzz.held.remove(id) == nil { fail("up without a down") }
        case .touchCancel:
            fuzz.held.removeAll()
        case .pointerEnter(let surface, _, _), .keyboardEnter(let surface, _):
            if !fuzz.surfaces.contains(surface) { fail("not its surface") }
        default:
            break
        }
    }
}
