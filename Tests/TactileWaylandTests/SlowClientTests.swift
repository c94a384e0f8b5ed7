import CWaylandClient
import Foundation
@testable import TactileTestSupport
import Testing
import WaylandProtocols

/// A client that stops reading its socket (hung, or hostile) must not hold up anyone else:
/// the server never blocks on it, other clients get every event in order, and once the
/// slow client's buffers are full libwayland drops it rather than queueing without bound.
@Suite struct SlowClientTests {
    @Test func aClientThatNeverReadsIsCutOffWhileOthersGetEveryEventInOrder() throws {
        let server = try TestServer()
        let slow = try TestClient(socket: server.socket)
        _ = try slow.toplevel(width: 400, height: 400, at: (0, 0))
        let bystander = try TestClient(socket: server.socket)
        let window = try bystander.toplevel(width: 400, height: 400, at: (600, 0))
        _ = bystander.take()
        let surface = bystander.id(window.surface)
        // From here on `slow` never reads: each round sends it a down, 50 motions and an up.
        for _ in 0..<200 {
            try bystander.inject { input in
                tactile_test_input_v1_touch_down(input, 1, f(100), f(100))
                tactile_test_input_v1_touch_down(input, 2, f(700), f(100))
                tactile_test_input_v1_touch_frame(input)
                for k in 0..<50 {
                    tactile_test_input_v1_touch_motion(input, 1, f(100 + Double(k)), f(100))
                    tactile_test_input_v1_touch_motion(input, 2, f(700 + Double(k)), f(100))
                    tactile_test_input_v1_touch_frame(input)
                }
                tactile_test_input_v1_touch_up(input, 1)
                tactile_test_input_v1_touch_up(input, 2)
                tactile_test_input_v1_touch_frame(input)
            }
            let expected = [Seen.touchDown(surface: surface, id: 2, x: f(100), y: f(100)), .touchFrame]
                + (0..<50).flatMap { k in [Seen.touchMotion(id: 2, x: f(100 + Double(k)), y: f(100)), .touchFrame] }
                + [.touchUp(id: 2), .touchFrame]
            let seen = bystander.take().filter { !$0.isKeyboard }
            #expect(seen == expected)
            if seen != expected { break }
        }
        #expect(throws: ClientError.self, "the server dropped the client that never read") {
            for _ in 0..<100 { try slow.roundtrip() }
        }
    }
}
