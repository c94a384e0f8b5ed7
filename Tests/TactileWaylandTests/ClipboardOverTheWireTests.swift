import CWaylandClient
import Glibc
@testable import TactileTestSupport
import Testing

/// The clipboard between two real clients: the one with keyboard focus is offered what the
/// other copied, and reading it gets the copier's bytes.
@Suite struct ClipboardOverTheWireTests {
    @Test func whatOneClientCopiesTheFocusedOnePastes() throws {
        let server = try TestServer()
        var writer: TestClient? = try TestClient(socket: server.socket)
        let reader = try TestClient(socket: server.socket)
        let writerClipboard = ClipboardClient(client: writer!)
        let readerClipboard = ClipboardClient(client: reader)
        _ = try writer!.toplevel(width: 100, height: 100, at: (0, 0))
        writerClipboard.copy("copied by the writer", as: "text/plain;charset=utf-8", client: writer!)
        try writer!.roundtrip()
        try reader.roundtrip()
        #expect(readerClipboard.selection == nil, "offered the selection without keyboard focus")

        // The reader's window maps (another client's window keeps focus) and a touch gives it
        // focus: it is offered the selection.
        _ = try reader.toplevel(width: 100, height: 100, at: (200, 0))
        #expect(readerClipboard.selection == nil, "still without focus")
        _ = try reader.surfaceHit(at: 250, 50)
        try reader.roundtrip()
        #expect(readerClipboard.selectionTypes == ["text/plain;charset=utf-8"])
        let fd = try #require(readerClipboard.paste(as: "text/plain;charset=utf-8"))
        defer { close(fd) }
        try reader.roundtrip()
        try writer!.roundtrip()
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &bytes, bytes.count)
        #expect(String(decoding: bytes[..<max(0, count)], as: UTF8.self) == "copied by the writer")

        // The writer goes: its selection goes with it, and the reader is told.
        writer = nil
        try reader.roundtrip()
        #expect(readerClipboard.selection == nil, "the selection outlived its source's client")
    }
}
