import BenchmarkScenes
import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// Random input through the test protocol while real clients come and go, map and destroy
/// windows (issue 12). Each client checks what it receives as a client would: no touch event
/// without its down, no second down for a touch it holds, no down or enter on a surface
/// that is not its own, and once every finger is up, no touch left down. A client the server
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
        print("input fuzz: \(sent) events, \(fuzz.downs) downs delivered, resident \(residentAtATenth ?? 0) KiB at a tenth, \(residentKiB()) KiB at the end")
        try fuzz.liftEverything()
        #expect(fuzz.violations == [])
        #expect(fuzz.downs > events / 100, "the stream reached clients' surfaces")
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

    init(socket: String, devices: Set<String>) throws {
        client = try TestClient(socket: socket, devices: devices)
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
            case 0..<30 where fingers.contains(id): tactile_test_input_v1_touch_motion(input, id, x, y)
            case 0..<30: tactile_test_input_v1_touch_down(input, id, x, y); fingers.insert(id)
            case 30..<42: tactile_test_input_v1_touch_up(input, id); fingers.remove(id)
            case 42..<45: tactile_test_input_v1_touch_cancel(input, id); fingers.remove(id)
            case 45..<75: tactile_test_input_v1_touch_frame(input)
            case 75..<90: tactile_test_input_v1_pointer_motion(input, x, y)
            case 90..<95: tactile_test_input_v1_pointer_button(input, 0x110, UInt32(rng.draw(2)))
            default: tactile_test_input_v1_key(input, UInt32(30 + rng.draw(3)), UInt32(rng.draw(2)))
            }
        }
        try driver.roundtrip()
        try checkAll()
        return count
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
        let client = try FuzzClient(socket: socket, devices: kinds[rng.draw(kinds.count)])
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
