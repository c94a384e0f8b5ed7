import CWaylandServer
import Responder
import TactileRender

/// One output's wl_output global, the resources clients bound of it, and its frame state.
final class Output {
    static let version: Int32 = 4

    let id: OutputID
    /// What its backend said of it, before the configured settings.
    private(set) var announced: OutputDescription
    private(set) var placed: PlacedOutput
    /// Weak: the backend owns its outputs' presenter, and holds the server.
    weak var presenter: (any OutputPresenter)?
    /// A frame was asked of the presenter and it has not said it is shown yet.
    var framePending = false
    /// When the frame in flight (or the last one) was composed: what it showed was latched then.
    var composedAt: Instant?
    /// When its next frame is composed (after a vblank: as late as is safe).
    var repaintSchedule = RepaintSchedule()
    /// false while its panel sleeps (set only through `Outputs.setPower`): composed, for
    /// screenshots, but not presented, and frame callbacks wait for an output that is on.
    var poweredOn = true
    /// Frames shown since it was added, and when the last was, for a fleet's monitoring
    /// (`ServerStatistics`).
    var framesPresented = 0
    var lastPresented: Instant?
    /// The region zoom by touch shows magnified on this output (`Zooming`); nil: none.
    var magnification: ZoomView?
    let screen: OutputScreen
    private var global: Global?
    /// Every wl_output resource bound of this output, for wl_surface.enter and leave.
    private(set) var resources: [OpaquePointer] = []

    init(id: OutputID, announced: OutputDescription, placed: PlacedOutput, presenter: any OutputPresenter, renderer: any Renderer) {
        self.id = id
        screen = OutputScreen(renderer: renderer)
        self.announced = announced
        self.placed = placed
        self.presenter = presenter
    }

    /// Offers the wl_output global, once the output is in the layout (a disabled one is not).
    func announce(on display: OpaquePointer) {
        guard global == nil else { return }
        global = Global(display: display, interface: tactile_wl_output_interface(), version: Self.version, context: self,
                        requests: Self.requests, destroyed: { resource in
                            guard let resource, let output = Global.context(of: resource, as: Output.self) else { return }
                            output.resources.removeAll { $0 == resource }
                        }) { [unowned self] resource, _ in
            resources.append(resource)
            describe(to: resource)
        }
    }

    /// The client's resources of this output (one per wl_registry.bind).
    func resources(of client: OpaquePointer) -> [OpaquePointer] {
        resources.filter { wl_resource_get_client($0) == client }
    }

    /// A new mode, scale, transform or place: every client that bound the output hears it
    /// again.
    func update(announced: OutputDescription, _ placed: PlacedOutput) {
        self.announced = announced
        self.placed = placed
        for resource in resources { describe(to: resource) }
    }

    /// Withdraws the wl_output global; resources already bound stay until released.
    func withdraw() {
        global?.remove()
        global = nil
    }

    /// Geometry (position in the layout, physical size, make, model, the panel's transform,
    /// which a client may pre-rotate its buffers by), the one current mode (the panel's own,
    /// not turned), scale, name and description, then done.
    private func describe(to output: OpaquePointer) {
        let d = placed.description
        let version = wl_resource_get_version(output)
        let clamp = { (value: Int) in Int32(clamping: value) }
        wl_output_send_geometry(output, clamp(placed.rect.x), clamp(placed.rect.y), clamp(d.physicalSize.width), clamp(d.physicalSize.height),
                                Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), d.make, d.model, d.transform.rawValue)
        wl_output_send_mode(output, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue,
                            clamp(d.pixelSize.width), clamp(d.pixelSize.height), d.refresh)
        if version >= 2 { wl_output_send_scale(output, d.integerScale) }
        if version >= 4 {
            wl_output_send_name(output, d.name)
            wl_output_send_description(output, d.description)
        }
        if version >= 2 { wl_output_send_done(output) }
    }

    static let requests = RequestTable(wl_output_interface(release: destroyResource))
}
