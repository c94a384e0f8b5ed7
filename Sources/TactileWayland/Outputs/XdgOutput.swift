import CWaylandServer
import Responder
import WaylandProtocols

/// zxdg_output_v1: an output's place and size in the global layout in logical pixels, which
/// wl_output alone does not say once outputs are scaled; grim reads it to crop and stitch.
final class XdgOutput: ResourceObject {
    weak var output: Output?
    /// The client's wl_output this describes, which carries `done` from version 3; used only
    /// while the output still lists it (it may be released first).
    private let outputResource: OpaquePointer

    init(output: Output?, outputResource: OpaquePointer) {
        self.output = output
        self.outputResource = outputResource
    }

    func describe() {
        guard let resource, let output else { return }
        let rect = output.placed.rect
        let clamp = { (value: Int) in Int32(clamping: value) }
        zxdg_output_v1_send_logical_position(resource, clamp(rect.x), clamp(rect.y))
        zxdg_output_v1_send_logical_size(resource, clamp(rect.width), clamp(rect.height))
        if version >= 2 {
            zxdg_output_v1_send_name(resource, output.placed.description.name)
            zxdg_output_v1_send_description(resource, output.placed.description.description)
        }
        if version >= 3 {
            if output.resources.contains(outputResource), wl_resource_get_version(outputResource) >= 2 { wl_output_send_done(outputResource) }
        } else {
            zxdg_output_v1_send_done(resource)
        }
    }

    static let requests = RequestTable(zxdg_output_v1_interface(destroy: destroyResource))
}

/// zxdg_output_manager_v1: every zxdg_output_v1 made, so a layout change reaches them all.
final class XdgOutputs: ServerPart {
    static let version: Int32 = 3
    private var made: [Weak] = []
    private var global: Global?

    private struct Weak { weak var object: XdgOutput? }

    init(display: OpaquePointer) {
        global = Global(display: display, interface: tactile_zxdg_output_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests)
    }

    private func add(_ output: XdgOutput) {
        made.removeAll { $0.object?.resource == nil }
        made.append(Weak(object: output))
    }

    func layoutChanged() {
        for entry in made { entry.object?.describe() }
    }

    private static let requests = RequestTable(zxdg_output_manager_v1_interface(
        destroy: destroyResource,
        get_xdg_output: { client, resource, id, outputResource in
            guard let client, let resource, let part = Global.context(of: resource, as: XdgOutputs.self), let outputResource else { return }
            let output = Global.context(of: outputResource, as: Output.self)
            let xdgOutput = XdgOutput(output: output, outputResource: outputResource)
            guard xdgOutput.bind(client: client, interface: tactile_zxdg_output_v1_interface(), version: wl_resource_get_version(resource),
                                 id: id, implementation: XdgOutput.requests) else { return }
            part.add(xdgOutput)
            xdgOutput.describe()
        }
    ))
}
