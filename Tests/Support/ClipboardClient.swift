import CWaylandClient
import Glibc

/// A test client's wl_data_device: the selection it is offered (its MIME types), and a
/// source it can set that writes a fixed text to whoever reads it.
final class ClipboardClient {
    let device: OpaquePointer
    /// The offer the latest selection event named, and the types offered with it.
    private(set) var selection: OpaquePointer?
    private(set) var selectionTypes: [String] = []
    private var types: [OpaquePointer: [String]] = [:]
    /// What the source writes when read.
    var text = ""

    init(client: TestClient) {
        device = wl_data_device_manager_get_data_device(client.dataDeviceManager, client.seat)!
        wl_data_device_add_listener(device, Self.deviceListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Sets the selection to a source offering `mime` that writes `text`.
    func copy(_ text: String, as mime: String, client: TestClient) {
        self.text = text
        let source = wl_data_device_manager_create_data_source(client.dataDeviceManager)!
        wl_data_source_add_listener(source, Self.sourceListener, Unmanaged.passUnretained(self).toOpaque())
        wl_data_source_offer(source, mime)
        wl_data_device_set_selection(device, source, 0)
    }

    /// Asks for the selection as `mime`; read the returned fd once the source has written.
    func paste(as mime: String) -> Int32? {
        guard let selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        wl_data_offer_receive(selection, mime, fds[1])
        close(fds[1])
        return fds[0]
    }

    private static func me(_ data: UnsafeMutableRawPointer?) -> ClipboardClient {
        Unmanaged<ClipboardClient>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let offerListener: UnsafeMutablePointer<wl_data_offer_listener> = {
        let pointer = UnsafeMutablePointer<wl_data_offer_listener>.allocate(capacity: 1)
        pointer.initialize(to: wl_data_offer_listener(
            offer: { data, offer, mime in me(data).types[offer!, default: []].append(String(cString: mime!)) },
            source_actions: { _, _, _ in },
            action: { _, _, _ in }
        ))
        return pointer
    }()

    nonisolated(unsafe) private static let deviceListener: UnsafeMutablePointer<wl_data_device_listener> = {
        let pointer = UnsafeMutablePointer<wl_data_device_listener>.allocate(capacity: 1)
        pointer.initialize(to: wl_data_device_listener(
            data_offer: { data, _, offer in wl_data_offer_add_listener(offer, offerListener, data) },
            enter: { _, _, _, _, _, _, _ in },
            leave: { _, _ in },
            motion: { _, _, _, _, _ in },
            drop: { _, _ in },
            selection: { data, _, offer in
                let me = me(data)
                me.selection = offer
                me.selectionTypes = offer.flatMap { me.types[$0] } ?? []
            }
        ))
        return pointer
    }()

    nonisolated(unsafe) private static let sourceListener: UnsafeMutablePointer<wl_data_source_listener> = {
        let pointer = UnsafeMutablePointer<wl_data_source_listener>.allocate(capacity: 1)
        pointer.initialize(to: wl_data_source_listener(
            target: { _, _, _ in },
            send: { data, _, _, fd in
                let text = me(data).text
                _ = text.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            },
            cancelled: { _, source in wl_data_source_destroy(source) },
            dnd_drop_performed: { _, _ in },
            dnd_finished: { _, _ in },
            action: { _, _, _ in }
        ))
        return pointer
    }()
}
