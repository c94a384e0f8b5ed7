import CWaylandServer
import Responder
import WaylandProtocols

/// zwlr_layer_surface_v1: a panel, dock, wallpaper or on-screen keyboard, laid out against its
/// output's edges (`LayerArrangement`) in one of four layers, and sized by the compositor.
///
/// Its state is double-buffered and takes effect on commit. The first commit gets a configure
/// with the size the layout gives; so does any commit that changes the state, and any change
/// of the layout that resizes it. A buffer in that first commit maps it at once (WLCS's
/// clients do so; the protocol would call it an error, and nothing is gained by one).
final class LayerSurface: ResourceObject, SurfaceRole {
    enum Layer: UInt32, CaseIterable, Comparable {
        case background = 0, bottom, top, overlay
        static func < (a: Layer, b: Layer) -> Bool { a.rawValue < b.rawValue }
    }

    /// Who gets keys: never this surface; this surface alone while it is mapped (a lock or a
    /// launcher); or this surface when touched, like a window.
    enum Interactivity: UInt32 {
        case none = 0, exclusive, onDemand
    }

    /// The state the client sets between commits.
    struct State: Hashable {
        var layer: Layer
        var request = LayerRequest()
        var interactivity = Interactivity.none
    }

    weak var surface: Surface?
    private var isHiddenAsPanel = false
    /// Unchecked: the part outlives every resource of its display.
    private unowned(unsafe) let layers: Layers
    /// The output the client named; nil: the compositor picks (the primary output).
    let requestedOutput: OutputID?
    /// What the client named itself ("wlcs", "wvkbd", "panel"), for traces and the inspector.
    let namespace: String
    private var pending: State
    private(set) var current: State
    /// The state last configured for, nil before the first commit (and again after the
    /// client unmapped: it starts over with an initial commit).
    private var configured: State?
    private var configuredSize: Size?
    /// Where the last layout put it, globally; nil before its first commit.
    private(set) var frame: Rect?
    /// Laid out from its first commit on.
    private(set) var hasCommitted = false
    /// Told `closed`: its output went, or its margins left it no room. It stays unmapped.
    private var isClosed = false
    let roleName = "layer-surface"

    var isMapped: Bool { resource != nil && !isClosed && frame != nil }
    /// Whether its exclusive zone counts: shown, with a buffer.
    var isShown: Bool { isMapped && surface?.hasBuffer == true }

    private init(surface: Surface, layers: Layers, output: OutputID?, layer: Layer, namespace: String) {
        self.surface = surface
        self.layers = layers
        requestedOutput = output
        self.namespace = namespace
        pending = State(layer: layer)
        current = pending
    }

    /// zwlr_layer_shell_v1.get_layer_surface.
    static func create(_ client: OpaquePointer?, _ shell: OpaquePointer?, _ id: UInt32, _ surfaceResource: OpaquePointer?,
                       _ outputResource: OpaquePointer?, _ layerValue: UInt32, _ namespace: UnsafePointer<CChar>?, layers: Layers) {
        guard let client, let shell, let surface = Surface.from(surfaceResource) else { return }
        guard !surface.hasRole else {
            return tactile_post_error(shell, ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue, "wl_surface already has a role")
        }
        guard let layer = Layer(rawValue: layerValue) else {
            return tactile_post_error(shell, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "\(layerValue) is not a layer")
        }
        guard !surface.hasBuffer, !surface.hasPendingBuffer else {
            return tactile_post_error(shell, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED.rawValue, "wl_surface already has a buffer")
        }
        let output = outputResource.flatMap { Global.context(of: $0, as: Output.self)?.id }
        let layerSurface = LayerSurface(surface: surface, layers: layers, output: output, layer: layer, namespace: printableLabel(namespace) ?? "")
        guard layerSurface.bind(client: client, interface: tactile_zwlr_layer_surface_v1_interface(), version: wl_resource_get_version(shell),
                                id: id, implementation: requests) else { return }
        surface.role = layerSurface
        layers.surfaces.append(layerSurface)
        layers.addNode(of: surface, in: layer, isToplevel: false)
    }

    /// Applies the state set since the last commit, lays the output out again, and answers
    /// with a configure when the state changed (or this is the first commit).
    func committed(surface: Surface, hadBuffer: Bool) {
        guard resource != nil, !isClosed else { return }
        guard pending.request.hasValidSize else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue,
                             "a width or height of 0 needs anchors on both sides of it")
        }
        guard pending.request.anchor.isSuperset(of: pending.request.exclusiveEdge) else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_EXCLUSIVE_EDGE.rawValue, "the exclusive edge is not anchored")
        }
        let context = layers.windows.context
        let wasShown = frame != nil && hadBuffer
        if hadBuffer, !surface.hasBuffer { configured = nil }
        hasCommitted = true
        let old = current
        current = pending
        if current.layer != old.layer { layers.move(self, to: current.layer) }
        if current.interactivity != old.interactivity, let node = surface.node {
            context.updateScene { [interactivity = current.interactivity] in $0.update(node) { $0.isToplevel = interactivity != .none } }
        }
        layers.arrange()
        if configured != current { sendConfigure() }
        surface.syncNode()
        context.afterScene { [weak self] in self?.updateFocus(wasShown: wasShown, old: old.interactivity) }
    }

    /// The layout moved or resized it (nil: no room left for it).
    func arranged(_ rect: Rect?) {
        guard let surface, !isClosed else { return }
        guard let rect else {
            layers.windows.context.logger.info("layer surface \(namespace): its margins leave it no room on its output; closed")
            return close()
        }
        guard rect != frame else { return }
        frame = rect
        surface.placeWindow(at: Position(x: rect.x, y: rect.y))
        if configured != nil, configuredSize != rect.size { sendConfigure() }
    }

    /// Hidden as an input panel a text field asked away (`Layers.hiddenPanel`), or shown
    /// again: its node, so it is neither drawn nor hit.
    func setHiddenAsPanel(_ hidden: Bool) {
        guard hidden != isHiddenAsPanel, let node = surface?.node else { return }
        isHiddenAsPanel = hidden
        layers.windows.context.updateScene { $0.update(node) { $0.isHidden = hidden } }
    }

    /// Its node was remade (a new layer): the next layout places it again.
    func forgetFrame() {
        frame = nil
        isHiddenAsPanel = false
    }

    /// The output went, or no room is left: the client is told, and should destroy it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        surface?.syncNode()
        layers.windows.context.afterScene { [weak self] in self?.updateFocus(wasShown: true, old: self?.current.interactivity ?? .none) }
        if let resource { zwlr_layer_surface_v1_send_closed(resource) }
    }

    private func sendConfigure() {
        guard let resource, surface != nil, let size = frame?.size else { return }
        configured = current
        configuredSize = size
        zwlr_layer_surface_v1_send_configure(resource, layers.windows.context.nextSerial(), UInt32(clamping: size.width), UInt32(clamping: size.height))
    }

    /// Exclusive interactivity takes keyboard focus and pins it while the surface is shown;
    /// on-demand takes it as it maps and lets touches move it; none never has it. When the
    /// surface stops holding it, focus goes back to the topmost window.
    private func updateFocus(wasShown: Bool, old: Interactivity) {
        guard let node = surface?.node else { return }
        let context = layers.windows.context
        let shown = isShown, hasFocus = context.focus.keyboard == node
        let interactivity = isClosed ? .none : current.interactivity
        if shown, interactivity != .none, !wasShown || old != interactivity {
            context.keyboardFocusIsPinned = false
            context.focusKeyboard(on: node, because: "layer-surface")
            context.keyboardFocusIsPinned = interactivity == .exclusive
        } else if hasFocus, !shown || interactivity == .none {
            context.keyboardFocusIsPinned = false
            layers.windows.focusTopWindow(because: "layer-surface-released")
        } else if hasFocus, interactivity == .onDemand {
            context.keyboardFocusIsPinned = false
        }
    }

    /// The wl_surface went first: its node goes with it (and keyboard focus, if it had it,
    /// goes nowhere, as for a window); the surface leaves the layout.
    func surfaceDestroyed() { withdraw(removingNode: false) }

    /// The role went, the surface stays: unmapped, and focus it held goes to the topmost window.
    override func resourceDestroyed() { withdraw(removingNode: true) }

    /// Out of the layout, so windows get its space back; a pin on keyboard focus it held ends.
    private func withdraw(removingNode: Bool) {
        guard layers.surfaces.contains(where: { $0 === self }) else { return }
        layers.surfaces.removeAll { $0 === self }
        let context = layers.windows.context
        let node = surface?.node
        let hadFocus = node != nil && context.focus.keyboard == node
        if hadFocus { context.keyboardFocusIsPinned = false }
        if removingNode {
            surface?.removeNode()
            if hadFocus { layers.windows.focusTopWindow(because: "layer-surface-released") }
        }
        layers.arrange()
    }

    private func set(_ change: (inout State) -> Void) { change(&pending) }

    private func setAnchor(_ value: UInt32) {
        guard value <= LayerAnchor.all.rawValue else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue, "\(value) is not a set of anchors")
        }
        set { $0.request.anchor = LayerAnchor(rawValue: value) }
    }

    private func setInteractivity(_ value: UInt32) {
        // on_demand came with version 4.
        guard let interactivity = Interactivity(rawValue: value), interactivity != .onDemand || version >= 4 else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY.rawValue, "\(value) is not a keyboard interactivity")
        }
        set { $0.interactivity = interactivity }
    }

    private func setLayer(_ value: UInt32) {
        guard let layer = Layer(rawValue: value) else {
            return postError(ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "\(value) is not a layer")
        }
        set { $0.layer = layer }
    }

    private func setExclusiveEdge(_ value: UInt32) {
        let edge = LayerAnchor(rawValue: value)
        guard edge.isEmpty || edge.isOneEdge else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_EXCLUSIVE_EDGE.rawValue, "\(value) is not one edge")
        }
        set { $0.request.exclusiveEdge = edge }
    }

    /// A popup created with no parent becomes this surface's.
    private func getPopup(_ popupResource: OpaquePointer?) {
        guard let popup = XdgPopup.from(popupResource), let surface else { return }
        guard popup.attach(toLayerSurface: surface) else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue, "the popup already has a parent")
        }
    }

    static let requests = RequestTable(zwlr_layer_surface_v1_interface(
        set_size: { _, r, width, height in
            LayerSurface.from(r)?.set { $0.request.width = Int(width); $0.request.height = Int(height) }
        },
        set_anchor: { _, r, anchor in LayerSurface.from(r)?.setAnchor(anchor) },
        set_exclusive_zone: { _, r, zone in LayerSurface.from(r)?.set { $0.request.exclusiveZone = Int(zone) } },
        set_margin: { _, r, top, right, bottom, left in
            LayerSurface.from(r)?.set { $0.request.margins = LayerMargins(top: Int(top), right: Int(right), bottom: Int(bottom), left: Int(left)) }
        },
        set_keyboard_interactivity: { _, r, value in LayerSurface.from(r)?.setInteractivity(value) },
        get_popup: { _, r, popup in LayerSurface.from(r)?.getPopup(popup) },
        ack_configure: { _, _, _ in },
        destroy: destroyResource,
        set_layer: { _, r, layer in LayerSurface.from(r)?.setLayer(layer) },
        set_exclusive_edge: { _, r, edge in LayerSurface.from(r)?.setExclusiveEdge(edge) }
    ))
}
