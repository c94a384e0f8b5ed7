import CWaylandServer

extension WaylandServer {
    static let outputVersion: Int32 = 4

    /// The single output's wl_output name, which device settings map touchscreens to.
    public var outputName: String { "HEADLESS-1" }

    func createOutputGlobal() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_global_create(display, tactile_wl_output_interface(), Self.outputVersion, me) { client, data, version, id in
            let server = Unmanaged<WaylandServer>.fromOpaque(data!).takeUnretainedValue()
            guard let output = server.bindGlobal(client, tactile_wl_output_interface(), version, id, WaylandServer.outputRequests,
                                                 destroyed: { resource in
                                                     guard let resource, let server = WaylandServer.from(resource) else { return }
                                                     server.clients[wl_resource_get_client(resource)]?.outputs.removeAll { $0 == resource }
                                                 }) else { return }
            server.clients[client!]?.outputs.append(output)
            server.describeOutput(to: output)
        }
    }

    /// The virtual output: one mode at the configured size, 60 Hz, scale 1, at the origin.
    private func describeOutput(to output: OpaquePointer) {
        let size = configuration.outputSize
        let version = wl_resource_get_version(output)
        // Physical size from a 96 dpi guess; clients only use it for DPI hints.
        let mm = { (px: Int) in Int32(Double(px) * 25.4 / 96) }
        wl_output_send_geometry(output, 0, 0, mm(size.width), mm(size.height), Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue),
                                "Tactile", "headless", Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        wl_output_send_mode(output, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue,
                            Int32(size.width), Int32(size.height), 60000)
        if version >= 2 { wl_output_send_scale(output, 1) }
        if version >= 4 {
            wl_output_send_name(output, outputName)
            wl_output_send_description(output, "Tactile headless output \(size.width)x\(size.height)")
        }
        if version >= 2 { wl_output_send_done(output) }
    }

    static let outputRequests = RequestTable(wl_output_interface(release: destroyResource))
}
