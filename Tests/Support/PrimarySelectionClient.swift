import CWaylandClient
import Glibc
import WaylandProtocols

/// A test client's zwp_primary_selection_device_v1: the primary selection it is offered (its
/// MIME types), and a source it can set that writes a fixed text to whoever reads it.
final class PrimarySelectionClient {
    let device: OpaquePointer
    private(set) var selection: OpaquePointer?
    private(set) var selectionTypes: [String] = []
    private var types: [OpaquePointer: [String]] = [:]
    /// What the source writes when read.
    var text = ""

    init(client: TestClient) {
        device = zwp_primary_selection_device_manager_v1_get_device(client.primarySelectionManager, client.seat)!
        zwp_primary_selection_device_v1_add_listener(device, Self.deviceListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Sets the primary selection to a source offering `mime` that writes `text`.
    func select(_ text: String, as mime: String, client: TestClient) {
        self.text = text
        let source = zwp_primary_selection_device_manager_v1_create_source(client.primarySelectionManager)!
        zwp_primary_selection_source_v1_add_listener(source, Self.sourceListener, Unmanaged.passUnretained(self).toOpaque())
        zwp_primary_selection_source_v1_offer(source, mime)
        zwp_primary_selection_device_v1_set_selection(device, source, 0)
    }

    /// Asks for the selection as `mime`; read the returned fd once the source has written.
    func paste(as mime: String) -> Int32? {
        guard let selection else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        zwp_primary_selection_offer_v1_receive(selection, mime, fds[1])
        close(fds[1])
        return fds[0]
    }

    private static func me(_ data: UnsafeMutableRawPointer?) -> PrimarySelectionClient {
        Unmanaged<PrimarySelectionClient>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let offerListener: UnsafeMutablePointer<zwp_primary_selection_offer_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_primary_selection_offer_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_primary_selection_offer_v1_listener(
            offer: { data, offer, mime in me(data).types[offer!, default: []].append(String(cString: mime!)) }
        ))
        return pointer
    }()

    nonisolated(unsafe) private static let deviceListener: UnsafeMutablePointer<zwp_primary_selection_device_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_primary_selection_device_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_primary_selection_device_v1_listener(
            data_offer: { data, _, offer in zwp_primary_selection_offer_v1_add_listener(offer, offerListener, data) },
            selection: { data, _, offer in
                let me = me(data)
                me.selection = offer
                me.selectionTypes = offer.flatMap { me.types[$0] } ?? []
            }
        ))
        return pointer
    }()

    nonisolated(unsafe) private static let sourceListener: UnsafeMutablePointer<zwp_primary_selection_source_v1_listener> = {
        let pointer = UnsafeMutablePointer<zwp_primary_selection_source_v1_listener>.allocate(capacity: 1)
        pointer.initialize(to: zwp_primary_selection_source_v1_listener(
            send: { data, _, _, fd in
                let text = me(data).text
                _ = text.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            },
            cancelled: { _, source in zwp_primary_selection_source_v1_destroy(source) }
        ))
        return pointer
    }()
}
