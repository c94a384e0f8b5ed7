import Responder

/// The window manager, shared by the shells (xdg, wl_shell, layer shell), which reach it and
/// not the server: its policy, where windows stack among the layers, the window activated,
/// the popups holding a grab, and the docks that list windows (`ForeignToplevels`).
///
/// Window focus on top of the core's focus-on-touch/click, with the policy's say:
/// - a toplevel that maps for the first time ends any popup grab, and takes keyboard focus
///   as the policy says (`WindowPolicy.newWindowFocus`: by default the first window, the
///   focused client's, or one activated with a token, `XdgActivation`);
/// - a popup that asked for a grab takes keyboard focus when it maps, and clicks or touches
///   inside it keep focus there; a press delivered to another client dismisses every grabbing
///   popup (xdg_popup.popup_done, topmost first; `PopupGrab`);
/// - exactly the xdg toplevel that holds keyboard focus (itself or through its popups) is
///   configured `activated`.
final class Windows: ServerPart {
    unowned(unsafe) let context: any PartContext
    let outputs: Outputs
    let seat: Seat
    var policy: any WindowPolicy
    /// What lists windows for other clients (docks' wlr handles, ext_foreign_toplevel_list):
    /// each hears of every window that maps, changes and goes.
    let listings: [any WindowListing]
    /// The compositor node of each layer, made when a layer first has a surface and never
    /// removed (an empty layer's node is an empty container). The scene's root stacks
    /// background, bottom, the windows, top, overlay: hit testing and composition then put
    /// panels and keyboards above windows and wallpapers below them with no rule of their own.
    private(set) var layerNodes: [LayerSurface.Layer: NodeID] = [:]
    /// Popups holding a grab, the topmost last, while one does.
    private(set) lazy var popupGrab = PopupGrab(seat: seat)
    /// The interactive move or resize under way.
    var interactiveGrab: InteractiveGrab?
    /// The toplevel last configured as activated.
    weak var activated: XdgToplevel?
    /// The window (of any shell) holding keyboard focus, as docks were last told.
    weak var focusedWindow: ListedWindow?

    init(context: any PartContext, outputs: Outputs, seat: Seat, policy: any WindowPolicy, listings: [any WindowListing]) {
        self.context = context
        self.outputs = outputs
        self.seat = seat
        self.policy = policy
        self.listings = listings
    }

    /// The node nothing may go above (the session lock's, while locked).
    var ceiling: NodeID?
    /// The node touchscreen calibrators show in, under the lock's (`TouchCalibration`).
    var calibrationCeiling: NodeID?
    /// The compositor's own overlays' node (`Overlays`), made when one first shows: over
    /// everything, the lock included.
    var overlayLayer: NodeID?
    /// What windows and layers stay under: the lowest of the ceilings.
    private var lowestCeiling: NodeID? { calibrationCeiling ?? ceiling ?? overlayLayer }
    /// Where the lock and the calibrators' node go among the root's children: topmost, but
    /// under the overlays.
    var underOverlays: StackPosition { overlayLayer.map { .below($0) } ?? .top }

    /// Where a new or raised window goes among the root's children: under the top layers.
    var windowStackPosition: StackPosition {
        if let top = layerNodes[.top] ?? layerNodes[.overlay] { return .below(top) }
        return lowestCeiling.map { .below($0) } ?? .top
    }

    /// Makes `layer`'s node if it has none, on its side of the windows (background and bottom
    /// under them, top and overlay over them): next to the other layer on that side, if it
    /// has a node, else at that end of the root's children.
    func makeLayerNode(_ layer: LayerSurface.Layer, in scene: inout Scene) {
        guard layerNodes[layer] == nil else { return }
        let position: StackPosition = switch layer {
        case .background: layerNodes[.bottom].map { .below($0) } ?? .bottom
        case .bottom: layerNodes[.background].map { .above($0) } ?? .bottom
        case .top: layerNodes[.overlay].map { .below($0) } ?? lowestCeiling.map { .below($0) } ?? .top
        case .overlay: layerNodes[.top].map { .above($0) } ?? lowestCeiling.map { .below($0) } ?? .top
        }
        layerNodes[layer] = scene.add(.compositor(), to: scene.root, at: position)
    }

    /// A toplevel mapped for the first time: it comes to the front, and takes keyboard
    /// focus as the policy says.
    func windowMapped(_ node: NodeID, surface: Surface) {
        popupGrab.dismiss()
        // It comes to the front of the windows, whenever its role was made.
        raise(node)
        // A layer surface holding focus exclusively (a lock, a launcher) keeps it.
        guard !context.keyboardFocusIsPinned else { return }
        let activated = ActivatedBeforeMapping.take(from: surface)
        let holder = context.keyboardFocusClient
        let takes = switch policy.newWindowFocus {
        case .always: true
        case .never: activated
        case .activation: holder == nil || holder == surface.owner.id || activated
        }
        if takes {
            context.focusKeyboard(on: node, because: activated ? "window-activated" : "window-mapped")
        } else {
            let reason = policy.newWindowFocus == .never ? "focus-new-windows-never" : "no-activation-token"
            withholdFocus(from: node, of: surface.owner.id, because: reason)
            context.logger.info("a window of \(surface.owner.id) mapped without keyboard focus (\(reason)): \(holder.map { "\($0) has it" } ?? "nobody has it")")
        }
    }

    /// Windows that asked for keyboard focus and were refused it (focus stealing), until they
    /// get it; the inspector marks them `attention`. wlr-foreign-toplevel has no state for it.
    private(set) var wantingAttention: Set<NodeID> = []

    /// Keeps keyboard focus where it is against `node`'s request, and says so in the trace.
    func withholdFocus(from node: NodeID, of client: ClientID, because reason: String) {
        let scene = context.scene
        wantingAttention = wantingAttention.filter { scene.node($0) != nil }
        wantingAttention.insert(node)
        context.trace(.keyboardFocusWithheld(node, client, reason: reason))
    }

    /// Reconfigures the toplevel that gained keyboard focus and the one that lost it, and tells
    /// docks which window is focused.
    func focusChanged(_ focus: SeatFocus) {
        let scene = context.scene
        if let toplevel = focus.keyboard.flatMap({ scene.toplevel(containing: $0) }) { wantingAttention.remove(toplevel) }
        let window = focus.keyboard.flatMap { scene.toplevel(containing: $0) }.flatMap { context.surface(at: $0)?.listedWindow }
        if window !== focusedWindow {
            let previous = focusedWindow
            focusedWindow = window
            for changed in [previous, window].compactMap({ $0 }) { listings.changed(changed) }
        }
        let focused = focus.keyboard.flatMap { context.surface(at: $0)?.addon(XdgSurface.self)?.toplevel }
        guard focused !== activated else { return }
        let previous = activated
        activated = focused
        previous?.activationChanged()
        focused?.activationChanged()
    }

    /// The output a window at `origin` is on: the one holding the point, else the first.
    func output(at origin: Position) -> PlacedOutput? {
        outputs.placed(at: origin.point) ?? outputs.primary
    }

    /// `removed` left the layout: the windows on it move to the first output left, where the
    /// policy puts them.
    func outputWithdrawn(_ removed: Output) {
        guard let target = outputs.primary else { return }
        for (surface, window) in toplevelWindows() where removed.placed.rect.contains(window.point) {
            surface.placeWindow(at: policy.relocate(window, from: removed.placed, to: target))
        }
    }

    /// The area windows may use changed (outputs, layer surfaces' exclusive zones): toplevels
    /// that fill their output hear the new size.
    func windowAreasChanged() {
        for (surface, _) in toplevelWindows() { surface.listedWindow?.layoutChanged() }
    }

    /// The outputs were repainted from `drawn` (bottom to top, global frames): each window
    /// hears whether any of it shows on a powered-on output, and may look at where it is.
    func repainted(_ drawn: [(Surface, Rect)]) {
        let shown = shownWindows(drawn)
        let scene = context.scene
        let (below, above) = scene.stacking(of: scene.root)
        // The windows at the root, as `toplevelWindows()` lists them, without making that list.
        for id in below { context.surface(at: id)?.listedWindow?.repainted(shown: shown.contains(id)) }
        for id in above { context.surface(at: id)?.listedWindow?.repainted(shown: shown.contains(id)) }
    }

    /// What covers what, as the last repaint drew it, and the windows that showed then: most
    /// frames only change pixels, and nothing need be worked out again for them.
    private var drawnLast: [Cover] = []
    private var screensLast: [Rect] = []
    private var shownLast: Set<NodeID?> = []

    /// A drawn surface as far as what it hides goes.
    private struct Cover: Equatable {
        let surface: ObjectIdentifier
        let frame: Rect
        let alpha: Double?
        let factor: UInt32
        let imageOpaque: Bool
        let opaqueRegion: Region
    }

    /// The windows of which some pixel shows on a powered-on output.
    private func shownWindows(_ drawn: [(Surface, Rect)]) -> Set<NodeID?> {
        let scene = context.scene
        let cover = { (surface: Surface, frame: Rect) in
            Cover(surface: ObjectIdentifier(surface), frame: frame, alpha: surface.node.flatMap { scene.node($0)?.alpha },
                  factor: surface.current[AlphaMultiplier.self].factor, imageOpaque: surface.content?.image.isOpaque == true,
                  opaqueRegion: surface.current.opaqueRegion)
        }
        var unchanged = drawn.count == drawnLast.count && outputs.live.count { $0.poweredOn } == screensLast.count
        for (k, (surface, frame)) in drawn.enumerated() where unchanged && cover(surface, frame) != drawnLast[k] { unchanged = false }
        var screen = 0
        for output in outputs.live where unchanged && output.poweredOn {
            unchanged = output.placed.rect == screensLast[screen]
            screen += 1
        }
        if unchanged { return shownLast }
        drawnLast = drawn.map(cover)
        screensLast = outputs.live.filter(\.poweredOn).map(\.placed.rect)
        // Each surface counts for the window it belongs to: a subsurface that shows keeps its
        // window shown. Surfaces of no window (panels, the lock) only cover.
        let stack = drawn.map { surface, frame in
            let opaque = surface.node.flatMap { scene.node($0)?.alpha } == 1 && surface.current[AlphaMultiplier.self].factor == .max
            var hides = Region()
            if opaque, surface.content?.image.isOpaque == true {
                hides.add(frame)
            } else if opaque {
                for rect in surface.current.opaqueRegion.intersection(Rect(size: frame.size)).rects { hides.add(rect.offset(by: Position(x: frame.x, y: frame.y))) }
            }
            return WindowVisibility.Layer(id: surface.node.flatMap(scene.toplevel(containing:)), frame: frame, hides: hides)
        }
        shownLast = WindowVisibility.shown(stack, screens: screensLast)
        return shownLast
    }

    /// Every window at the root, with where its window geometry starts, globally.
    func toplevelWindows() -> [(Surface, Position)] {
        let scene = context.scene
        let (below, above) = scene.children(of: scene.root)
        return (below + above).compactMap { id in
            guard let surface = context.surface(at: id), let origin = scene.absolutePosition(of: id) else { return nil }
            let window = surface.windowOrigin
            return (surface, Position(x: origin.x + window.x, y: origin.y + window.y))
        }
    }

    /// Brings a window to the front of the windows, and its modal dialogs above it.
    func raise(_ node: NodeID) {
        context.updateScene { [position = windowStackPosition] in _ = $0.restack(node, to: position) }
        for window in context.listedWindows {
            guard let dialog = window as? XdgToplevel, dialog.isModal, dialog.parent?.windowSurface?.node == node,
                  let dialogNode = dialog.windowSurface?.node, dialogNode != node else { continue }
            raise(dialogNode)
        }
    }

    /// Keyboard focus goes to the topmost mapped window, or nowhere.
    func focusTopWindow(because reason: String) {
        context.focusKeyboard(on: mappedWindowNodes().last, because: reason)
    }

    /// Raises the window the policy picks (the bottom-most, by default) and focuses it.
    func focusNextWindow() {
        let windowNodes = mappedWindowNodes()
        let states = windowNodes.map { context.surface(at: $0)?.addon(XdgSurface.self)?.toplevel?.state ?? WindowState() }
        guard let index = policy.nextFocus(bottomToTop: states), windowNodes.indices.contains(index) else {
            return context.logger.info("focus-next: no window")
        }
        let next = windowNodes[index]
        raise(next)
        guard !context.keyboardFocusIsPinned else { return }
        context.focusKeyboard(on: next, because: "focus-next")
    }

    /// Asks the window holding keyboard focus to close (xdg_toplevel.close, or an X
    /// window's WM_DELETE_WINDOW).
    func closeFocusedWindow() {
        guard let focus = context.focus.keyboard, let window = context.scene.toplevel(containing: focus),
              let listed = context.surface(at: window)?.listedWindow, !(listed is ShellSurface) else {
            return context.logger.info("close-focused: no focused window that can be closed")
        }
        listed.sendClose()
    }

    /// The mapped windows at the root, bottom to top. A surface behind the node makes it a
    /// client's window, not a compositor node.
    private func mappedWindowNodes() -> [NodeID] {
        let scene = context.scene
        let (below, above) = scene.children(of: scene.root)
        return (below + above).filter { id in
            guard let node = scene.node(id) else { return false }
            return node.isToplevel && node.isMapped && context.surface(at: id) != nil
        }
    }
}

extension XdgSurface {
    /// The xdg toplevel this surface belongs to: itself, or the toplevel its popup chain
    /// starts from. The chain cannot loop: a popup's parent has its role before the popup.
    var toplevel: XdgToplevel? {
        var current: XdgSurface? = self
        while let xdg = current {
            if let toplevel = xdg.roleObject as? XdgToplevel { return toplevel }
            current = (xdg.roleObject as? XdgPopup)?.parent
        }
        return nil
    }
}
