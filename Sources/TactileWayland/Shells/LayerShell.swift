import CWaylandServer
import Responder
import WaylandProtocols

/// The layer-shell side of the window manager: a compositor node per layer, made when a
/// layer first has a surface, and the layer surfaces in the order they came.
///
/// The scene's root stacks background, bottom, the windows, top, overlay: hit testing and
/// composition then put panels and keyboards above windows and wallpapers below them with
/// no rule of their own.
final class Layers {
    static let version: Int32 = 5
    /// Never removed: an empty layer's node is an empty container.
    private(set) var nodes: [LayerSurface.Layer: NodeID] = [:]
    var surfaces: [LayerSurface] = []

    /// Makes `layer`'s node if it has none, on its side of the windows (background and bottom
    /// under them, top and overlay over them): next to the other layer on that side, if it
    /// has a node, else at that end of the root's children.
    func makeNode(_ layer: LayerSurface.Layer, under root: NodeID, in scene: inout Scene) {
        guard nodes[layer] == nil else { return }
        let position: StackPosition = switch layer {
        case .background: nodes[.bottom].map { .below($0) } ?? .bottom
        case .bottom: nodes[.background].map { .above($0) } ?? .bottom
        case .top: nodes[.overlay].map { .below($0) } ?? .top
        case .overlay: nodes[.top].map { .above($0) } ?? .top
        }
        nodes[layer] = scene.add(.compositor(), to: root, at: position)
    }
}

extension WaylandServer {
    static let layerShellRequests = RequestTable(zwlr_layer_shell_v1_interface(
        get_layer_surface: { client, shell, id, surface, output, layer, namespace in
            LayerSurface.create(client, shell, id, surface, output, layer, namespace)
        },
        destroy: destroyResource
    ))

    /// Where a new or raised window goes among the root's children: under the top layers.
    var windowStackPosition: StackPosition {
        if let top = windows.layers.nodes[.top] ?? windows.layers.nodes[.overlay] { return .below(top) }
        return .top
    }

    /// Puts `surface` in `layer`'s node, made first if the layer has none yet.
    func addLayerNode(of surface: Surface, in layer: LayerSurface.Layer, isToplevel: Bool) {
        let layers = windows.layers
        updateScene { [root = router.scene.root] scene in layers.makeNode(layer, under: root, in: &scene) }
        surface.createNode(.surface(of: surface.owner.id, isToplevel: isToplevel, isMapped: false), under: { layers.nodes[layer] })
    }

    /// set_layer took effect: the surface (with its popups) leaves one layer's node for another's.
    func moveLayerSurface(_ layerSurface: LayerSurface, to layer: LayerSurface.Layer) {
        guard let surface = layerSurface.surface else { return }
        surface.removeNode()
        addLayerNode(of: surface, in: layer, isToplevel: layerSurface.current.interactivity != .none)
        layerSurface.forgetFrame()
    }

    /// Lays out every output's layer surfaces (`LayerArrangement`), tells each surface where
    /// it goes, and gives windows what is left: those that fill their output hear the new size
    /// (then it returns true).
    @discardableResult
    func arrangeLayers() -> Bool {
        let all = windows.layers.surfaces
        var usable: [OutputID: Rect] = [:]
        var placements: [(LayerSurface, Rect?)] = []
        for output in outputs.layout {
            // Topmost layer first; a surface counts once it committed (shown or waiting to be).
            let here = all.filter { $0.hasCommitted && ($0.requestedOutput ?? outputs.primary?.id) == output.id }
                .sorted { $0.current.layer > $1.current.layer }
            let counted = here.map { $0.isShown ? $0.current.request : $0.current.request.withoutZone }
            let (rects, area) = LayerArrangement.arrange(counted, in: output.rect)
            usable[output.id] = area
            placements += zip(here, rects).map { ($0, $1) }
        }
        for layerSurface in all where layerSurface.hasCommitted {
            let output = layerSurface.requestedOutput ?? outputs.primary?.id
            if output.map({ id in !outputs.layout.contains { $0.id == id } }) ?? true {
                logger.info("layer surface \(layerSurface.namespace): its output is gone; closed")
                layerSurface.close()
            }
        }
        for (layerSurface, rect) in placements { layerSurface.arranged(rect) }
        guard usable != outputs.usableAreas else { return false }
        outputs.usableAreas = usable
        windowAreasChanged()
        return true
    }

    /// Keyboard focus goes to the topmost mapped window, or nowhere.
    func focusTopWindow(because reason: String) {
        let (below, above) = router.scene.children(of: router.scene.root)
        let top = (below + above).last { id in
            guard let node = router.scene.node(id) else { return false }
            return node.isToplevel && node.isMapped && surface(at: id) != nil
        }
        focusKeyboard(on: top, because: reason)
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
