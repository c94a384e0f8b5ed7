import CWaylandServer
import Responder
import WaylandProtocols

/// zwlr_layer_shell_v1: the layer surfaces in the order they came, each in its layer's node
/// (`Windows.layerNodes`), and the arrangement that gives each output's panels their place
/// and windows what is left.
final class Layers: ServerPart {
    static let version: Int32 = 5
    let windows: Windows
    var surfaces: [LayerSurface] = []
    /// The client whose layer surfaces are hidden as an input panel a text field asked
    /// away (text-input-v3's hide_input_panel; `TextInputs.updatePanel`): they are not
    /// drawn, take no input and reserve no space.
    var hiddenPanel: ClientID? {
        didSet { if hiddenPanel != oldValue { arrange() } }
    }
    private var global: Global?

    init(display: OpaquePointer, windows: Windows) {
        self.windows = windows
        global = Global(display: display, interface: tactile_zwlr_layer_shell_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .layerShell)
    }

    private static let requests = RequestTable(zwlr_layer_shell_v1_interface(
        get_layer_surface: { client, shell, id, surface, output, layer, namespace in
            guard let part = Global.context(of: shell, as: Layers.self) else { return }
            LayerSurface.create(client, shell, id, surface, output, layer, namespace, layers: part)
        },
        destroy: destroyResource
    ))

    /// The outputs changed: the layout is made again, and windows hear of the area left them
    /// even when the layer surfaces did not change it (an output's size did).
    func layoutChanged() {
        if !arrange() { windows.windowAreasChanged() }
    }

    /// Puts `surface` in `layer`'s node, made first if the layer has none yet.
    func addNode(of surface: Surface, in layer: LayerSurface.Layer, isToplevel: Bool) {
        let windows = windows
        windows.context.updateScene { scene in windows.makeLayerNode(layer, in: &scene) }
        surface.createNode(.surface(of: surface.owner.id, isToplevel: isToplevel, isMapped: false), under: { windows.layerNodes[layer] })
    }

    /// set_layer took effect: the surface (with its popups) leaves one layer's node for another's.
    func move(_ layerSurface: LayerSurface, to layer: LayerSurface.Layer) {
        guard let surface = layerSurface.surface else { return }
        surface.removeNode()
        addNode(of: surface, in: layer, isToplevel: layerSurface.current.interactivity != .none)
        layerSurface.forgetFrame()
    }

    /// Lays out every output's layer surfaces (`LayerArrangement`), tells each surface where
    /// it goes, and gives windows what is left: those that fill their output hear the new size
    /// (then it returns true).
    @discardableResult
    func arrange() -> Bool {
        let all = surfaces, outputs = windows.outputs
        var usable: [OutputID: Rect] = [:]
        var placements: [(LayerSurface, Rect?)] = []
        for output in outputs.layout {
            // Topmost layer first; a surface counts once it committed (shown or waiting to be).
            let here = all.filter { $0.hasCommitted && ($0.requestedOutput ?? outputs.primary?.id) == output.id }
                .sorted { $0.current.layer > $1.current.layer }
            let counted = here.map { $0.isShown && !isHiddenPanel($0) ? $0.current.request : $0.current.request.withoutZone }
            let (rects, area) = LayerArrangement.arrange(counted, in: output.rect)
            usable[output.id] = area
            placements += zip(here, rects).map { ($0, $1) }
        }
        for layerSurface in all where layerSurface.hasCommitted {
            let output = layerSurface.requestedOutput ?? outputs.primary?.id
            if output.map({ id in !outputs.layout.contains { $0.id == id } }) ?? true {
                windows.context.logger.info("layer surface \(layerSurface.namespace): its output is gone; closed")
                layerSurface.close()
            }
        }
        for (layerSurface, rect) in placements { layerSurface.arranged(rect) }
        for layerSurface in all { layerSurface.setHiddenAsPanel(isHiddenPanel(layerSurface)) }
        guard usable != outputs.usableAreas else { return false }
        outputs.usableAreas = usable
        windows.windowAreasChanged()
        return true
    }
}

extension Layers {
    private func isHiddenPanel(_ layerSurface: LayerSurface) -> Bool {
        hiddenPanel != nil && layerSurface.surface?.owner.id == hiddenPanel
    }
}

extension LayerRequest {
    /// The same placement without reserving space: a surface not shown reserves none.
    var withoutZone: LayerRequest {
        var copy = self
        copy.exclusiveZone = min(exclusiveZone, 0)
        return copy
    }
}
