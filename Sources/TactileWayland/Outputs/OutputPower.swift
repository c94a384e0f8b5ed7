import CWaylandServer
import WaylandProtocols

/// zwlr_output_power_manager_v1: a tool puts an output's panel to sleep and wakes it
/// (`Outputs.setPower`), and hears every change, idle blanking's too. One control per
/// output at a time, as wlroots has it: a second is told failed.
final class OutputPowerControls: ServerPart {
    static let version: Int32 = 1
    private let outputs: Outputs
    private var global: Global?
    fileprivate var controls: [OutputPowerControl] = []

    init(display: OpaquePointer, outputs: Outputs) {
        self.outputs = outputs
        global = Global(display: display, interface: tactile_zwlr_output_power_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .outputManagement)
        outputs.powerObservers.append { [unowned self] output in
            for control in controls where control.output === output { control.tell() }
        }
    }

    /// An output left the layout: its control fails.
    func layoutChanged() {
        for control in controls where !outputs.live.contains(where: { $0 === control.output }) { control.fail() }
        controls.removeAll { $0.output == nil }
    }

    fileprivate func set(_ on: Bool, of output: Output) {
        guard outputs.live.contains(where: { $0 === output }) else { return }
        outputs.setPower(on, of: output)
    }

    private static let requests = RequestTable(zwlr_output_power_manager_v1_interface(
        get_output_power: { client, resource, id, outputResource in
            guard let client, let resource, let part = Global.context(of: resource, as: OutputPowerControls.self) else { return }
            let output = Global.context(of: outputResource, as: Output.self).flatMap { output in part.outputs.live.first { $0 === output } }
            let control = OutputPowerControl(part: part, output: output)
            guard control.bind(client: client, interface: tactile_zwlr_output_power_v1_interface(), version: 1, id: id,
                               implementation: OutputPowerControl.requests) else { return }
            guard let output, !part.controls.contains(where: { $0.output === output }) else { return control.fail() }
            part.controls.append(control)
            control.tell()
        },
        destroy: destroyResource
    ))
}

/// zwlr_output_power_v1: one output's power mode, told and asked for.
final class OutputPowerControl: ResourceObject {
    private unowned let part: OutputPowerControls
    /// Nil once failed.
    private(set) weak var output: Output?

    fileprivate init(part: OutputPowerControls, output: Output?) {
        self.part = part
        self.output = output
    }

    fileprivate func tell() {
        guard let resource, let output else { return }
        zwlr_output_power_v1_send_mode(resource, output.poweredOn ? ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue : ZWLR_OUTPUT_POWER_V1_MODE_OFF.rawValue)
    }

    fileprivate func fail() {
        output = nil
        guard let resource else { return }
        zwlr_output_power_v1_send_failed(resource)
    }

    override func resourceDestroyed() {
        output = nil
        part.controls.removeAll { $0 === self }
    }

    static let requests = RequestTable(zwlr_output_power_v1_interface(
        set_mode: { _, resource, mode in
            guard let control = OutputPowerControl.from(resource) else { return }
            guard mode == ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue || mode == ZWLR_OUTPUT_POWER_V1_MODE_OFF.rawValue else {
                return control.postError(ZWLR_OUTPUT_POWER_V1_ERROR_INVALID_MODE.rawValue, "power mode \(mode) is neither off (0) nor on (1)")
            }
            guard let output = control.output else { return }
            control.part.set(mode == ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue, of: output)
        },
        destroy: destroyResource
    ))
}
