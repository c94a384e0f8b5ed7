@testable import TactileTestSupport
import Testing

extension TestServer {
    /// A fresh client does what `body` says, and the server must end it with protocol error
    /// `code` on an object of `interface`.
    func expectProtocolError(_ interface: String, _ code: UInt32, sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: (TestClient) throws -> Void) throws {
        let client = try TestClient(socket: socket)
        try body(client)
        #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try client.roundtrip() }
        #expect(client.lastError.hasPrefix("\(interface)#") && client.lastError.hasSuffix(": \(code)"), "\(client.lastError)",
                sourceLocation: sourceLocation)
    }
}
