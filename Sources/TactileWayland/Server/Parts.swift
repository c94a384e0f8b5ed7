import CWaylandServer
import Logging
import TactileRender

/// The server's parts (`ServerPart`), made once with it, and what several of them are given
/// (the outputs, the tracer, the recorder, and the signals below). A new protocol family is
/// one more part here: stored, made in `init` with what it uses, and listed in its phase.
final class Parts {
    /// Who may bind the privileged globals; made first, so no client sees one before.
    let privileges: Privileges
    /// Sandboxes' listeners, whose clients get no privileged global.
    let securityContexts: SecurityContexts
    let seat: Seat
    let outputs: Outputs
    /// The configured system gestures.
    let gestures: Gestures
    /// Where explained routing decisions go (`--trace`, the inspector, show-touches).
    let tracer = Tracer()
    /// Where `tactile record` hears the input the seat takes.
    let recorder = InputRecorder()
    /// The touchscreens' filters: bounces, jitter, ghosts, dead zones and stuck contacts
    /// repaired before anything but the recorder sees a touch.
    let touchFiltering: TouchFiltering
    let touchAccommodating: TouchAccommodating
    let zooming: Zooming
    let compositor: Compositor
    /// wl_shm: buffers in files clients share.
    let sharedMemory: SharedMemory
    /// wl_fixes: a registry's missing destructor.
    let fixes: Fixes
    let windows: Windows
    let xdgShell: XdgShell
    let activation: XdgActivation
    let wlShell: WlShell
    /// X11 apps' windows, once the host starts an Xwayland (`ServerPort.manageX11`).
    let xWindowManager: XWindowManager
    let decorations: XdgDecorations
    let layers: Layers
    let foreignToplevels: ForeignToplevels
    let foreignToplevelList: ForeignToplevelList
    let relativePointers: RelativePointers
    let pointerConstraints: PointerConstraints
    let pointerGestures: PointerGestures
    /// Pens as tablet tools, for clients with a tablet seat.
    let tablets: Tablets
    let virtualKeyboards: VirtualKeyboards
    let virtualPointers: VirtualPointers
    /// ext_transient_seat_manager_v1: seats of their own for remote helpers' virtual input.
    let transientSeats: TransientSeats
    let selections: Selections
    let textInputs: TextInputs
    let xdgOutputs: XdgOutputs
    let outputManagement: OutputManagement
    let singlePixelBuffers: SinglePixelBuffers
    /// Clients' GPU buffers, where the renderer imports them.
    let linuxDmabuf: LinuxDmabuf?
    let cursorShapes: CursorShapes
    let fractionalScales: FractionalScales
    let sessionLocks: SessionLocks
    /// weston_touch_calibration: a touchscreen's touches, uncalibrated, for a calibrator.
    let touchCalibration: TouchCalibration
    let presentation: Presentation
    let inputTimestamps: InputTimestampsManager
    let outputPower: OutputPowerControls
    let idleInhibitors: IdleInhibitors
    let idleNotifier: IdleNotifier
    /// Idle blanking, and waking by input.
    let idle: Idle
    /// The compositor's own drawings over everything: rings, and a kiosk's screens.
    let overlays: Overlays
    /// A kiosk's day: the session that starts over, the cleaning screen, the staff door.
    let sessionReset: SessionReset
    let cleaning: Cleaning
    let staffDoor: StaffDoor
    let screencopy: Screencopy
    /// ext-image-capture-source's managers and ext_image_copy_capture, wlr-screencopy's successor.
    let captureSources: CaptureSources
    let imageCopyCapture: ImageCopyCapture
    /// Output frames, composed from the scene.
    let composition: Composition
    let edgeDeferrals: EdgeDeferrals
    let viewporter: Viewporter
    let alphaModifiers: AlphaModifiers
    let contentTypes: ContentTypes
    let tearingControls: TearingControls
    let systemBell: SystemBell
    let dialogs: XdgDialogs
    let shortcutsInhibitors: ShortcutsInhibitors
    let toplevelIcons: ToplevelIcons
    /// xdg_toplevel_tag_manager_v1: windows named for the `windows` rules.
    let toplevelTags: ToplevelTags
    /// wp_fifo_v1 and wp_commit_timer_v1: updates that wait, applied when their time comes.
    let framePacing: FramePacing
    /// Offered with `--inspect` or `--test-input` only.
    let inspector: Inspector?
    /// Offered with `--test-input` only.
    let testInput: TestInput?
    /// Every part, for the hooks, in the order of `ordered`'s phases.
    let all: [any ServerPart]
    /// Focus as the parts last heard it.
    private var focus = SeatFocus()

    init(display: OpaquePointer, configuration: ServerConfiguration, renderer: any Renderer, context: any PartContext, inspected: any Inspectable,
         logger: Logger, makeSurface: @escaping (ClientState) -> Surface) {
        privileges = Privileges(display: display, policy: configuration.privileges, logger: logger)
        securityContexts = SecurityContexts(display: display, logger: logger)
        let keymap = Keymap(layout: configuration.keyboardLayout)
        if keymap == nil { logger.error("no XKB keymap for \(configuration.keyboardLayout); keyboards get no keymap (is xkb-data installed?)") }
        // What one part announces and others follow; each follower follows as it is made.
        let surfaceCreated = Signal<Surface>(), selectionChanged = Signal<SelectionKind>(), repaint = Signal<Void>(), cursorChanged = Signal<Void>()
        seat = Seat(display: display, keymap: keymap, cursorPolicy: configuration.cursor, cursorTheme: CursorTheme(logger: logger),
                    cursorChanged: cursorChanged)
        gestures = Gestures(bindings: configuration.gestures, logger: logger)
        touchFiltering = TouchFiltering(tracer: tracer, logger: logger)
        touchAccommodating = TouchAccommodating(tracer: tracer, logger: logger)
        let outputs = Outputs(settings: configuration.outputs, display: display, renderer: renderer, logger: logger) { [unowned context] in context.currentTime }
        zooming = Zooming(outputs: outputs, repaint: repaint, logger: logger)
        self.outputs = outputs
        compositor = Compositor(display: display, makeSurface: makeSurface, surfaceCreated: surfaceCreated)
        sharedMemory = SharedMemory(display: display)
        fixes = Fixes(display: display)
        foreignToplevels = ForeignToplevels(display: display, context: context, outputs: outputs)
        foreignToplevelList = ForeignToplevelList(display: display, context: context)
        captureSources = CaptureSources(display: display, outputs: outputs)
        imageCopyCapture = ImageCopyCapture(display: display, context: context, renderer: renderer, repaint: repaint)
        windows = Windows(context: context, outputs: outputs, seat: seat, policy: DefaultWindowPolicy(
            kiosk: configuration.kioskMode, newWindowFocus: configuration.newWindowFocus, rules: configuration.windowRules),
            listings: [foreignToplevels, foreignToplevelList, imageCopyCapture])
        activation = XdgActivation(display: display, windows: windows)
        xdgShell = XdgShell(display: display, windows: windows)
        wlShell = WlShell(display: display, windows: windows)
        decorations = XdgDecorations(display: display)
        layers = Layers(display: display, windows: windows)
        relativePointers = RelativePointers(display: display, context: context)
        pointerConstraints = PointerConstraints(display: display, context: context, seat: seat)
        pointerGestures = PointerGestures(display: display, seat: seat)
        tablets = Tablets(display: display, seat: seat)
        selections = Selections(display: display, context: context, changed: selectionChanged)
        xWindowManager = XWindowManager(context: context, windows: windows, selections: selections, loop: wl_display_get_event_loop(display),
                                        surfaceCreated: surfaceCreated, selectionChanged: selectionChanged)
        textInputs = TextInputs(display: display, context: context, seat: seat, layers: layers)
        xdgOutputs = XdgOutputs(display: display)
        outputManagement = OutputManagement(display: display, outputs: outputs, logger: logger)
        singlePixelBuffers = SinglePixelBuffers(display: display)
        linuxDmabuf = LinuxDmabuf(display: display, renderer: renderer, logger: logger)
        cursorShapes = CursorShapes(display: display, seat: seat)
        fractionalScales = FractionalScales(display: display)
        outputPower = OutputPowerControls(display: display, outputs: outputs)
        presentation = Presentation(display: display, outputs: outputs)
        inputTimestamps = InputTimestampsManager(display: display)
        sessionLocks = SessionLocks(display: display, windows: windows, gestures: gestures, logger: logger)
        touchCalibration = TouchCalibration(display: display, windows: windows, logger: logger)
        transientSeats = TransientSeats(display: display, context: context, seat: seat, pointerGestures: pointerGestures, tablets: tablets) {
            [unowned sessionLocks] in sessionLocks.admitsFocus(on: $0)
        }
        virtualKeyboards = VirtualKeyboards(display: display, context: context, seat: seat, transientSeats: transientSeats)
        virtualPointers = VirtualPointers(display: display, context: context, outputs: outputs, seat: seat, transientSeats: transientSeats)
        idleInhibitors = IdleInhibitors(display: display)
        idleNotifier = IdleNotifier(display: display, inhibitors: idleInhibitors) { [unowned context] in context.currentTime }
        idle = Idle(settings: configuration.idle, loop: wl_display_get_event_loop(display), outputs: outputs, grabs: seat.grabs, notifier: idleNotifier,
                    inhibitors: idleInhibitors, logger: logger) { [unowned context] in context.currentTime }
        let loop = wl_display_get_event_loop(display)!
        overlays = Overlays(context: context, windows: windows, outputs: outputs, grabs: seat.grabs, repaint: repaint)
        sessionReset = SessionReset(settings: configuration.sessionReset, loop: loop, overlays: overlays, idle: idle, logger: logger) { [unowned context] in context.currentTime }
        cleaning = Cleaning(settings: configuration.cleaning, loop: loop, overlays: overlays, outputs: outputs, logger: logger) { [unowned context] in context.currentTime }
        staffDoor = StaffDoor(settings: configuration.staff, loop: loop, overlays: overlays, outputs: outputs, grabs: seat.grabs, logger: logger) { [unowned context] in context.currentTime }
        screencopy = Screencopy(display: display, outputs: outputs, repaint: repaint)
        composition = Composition(context: context, loop: wl_display_get_event_loop(display), outputs: outputs, seat: seat, tablets: tablets,
                                  readers: [screencopy, imageCopyCapture], overlays: overlays, repaint: repaint, cursorChanged: cursorChanged,
                                  lockShield: { [unowned sessionLocks] in sessionLocks.shield }, repainted: { [unowned windows] in windows.repainted($0) })
        inspector = configuration.offersInspector ? Inspector(display: display, subject: inspected) : nil
        testInput = configuration.offersTestInput ? TestInput(display: display, host: context, tablets: tablets) : nil
        edgeDeferrals = EdgeDeferrals(display: display, limit: configuration.routingPolicy.edgeDeferralLimit)
        viewporter = Viewporter(display: display)
        alphaModifiers = AlphaModifiers(display: display)
        contentTypes = ContentTypes(display: display)
        tearingControls = TearingControls(display: display, logger: logger)
        systemBell = SystemBell(display: display, context: context, action: configuration.bell)
        dialogs = XdgDialogs(display: display)
        shortcutsInhibitors = ShortcutsInhibitors(display: display, context: context, policy: configuration.shortcutsInhibit)
        toplevelIcons = ToplevelIcons(display: display)
        toplevelTags = ToplevelTags(display: display)
        framePacing = FramePacing(display: display, context: context, outputs: outputs)
        all = Self.ordered(
            input: [
                seat,
                gestures,
                touchFiltering,
                touchAccommodating,
                zooming,
            ],
            access: [
                privileges,
                securityContexts,
                inspector,
                testInput,
            ],
            surfaces: [
                compositor,
                sharedMemory,
                fixes,
                xdgShell,
                activation,
                wlShell,
                decorations,
                layers,
                foreignToplevels,
                foreignToplevelList,
                edgeDeferrals,
                viewporter,
                alphaModifiers,
                contentTypes,
                tearingControls,
                systemBell,
                dialogs,
                shortcutsInhibitors,
                toplevelIcons,
                toplevelTags,
                framePacing,
                fractionalScales,
                singlePixelBuffers,
                linuxDmabuf,
                cursorShapes,
            ],
            outputs: [
                xdgOutputs,
                outputManagement,
                sessionLocks,
                touchCalibration,
                presentation,
                inputTimestamps,
                outputPower,
                idleInhibitors,
                idleNotifier,
                idle,
                sessionReset,
                cleaning,
                staffDoor,
            ],
            pixels: [
                overlays,
                screencopy,
                captureSources,
                imageCopyCapture,
                composition,
            ],
            focus: [
                windows,
                xWindowManager,
                textInputs,
                selections,
                pointerConstraints,
                relativePointers,
                pointerGestures,
                tablets,
                virtualKeyboards,
                virtualPointers,
                transientSeats,
            ])
    }
}

extension Parts {
    /// Every hook reaches the parts phase by phase, in this order; within a phase the order
    /// is free. Why the phases come in this order:
    /// - `input`: the seat forgets a client that left before any part hears of it, and the
    ///   gestures' timer goes first when the server stops;
    /// - `access`: privileges and sandboxes, and the opt-in tools' globals they guard (the
    ///   inspector, test input), which follow no hook;
    /// - `surfaces`: surfaces, their roles and per-surface protocols. Layer surfaces are
    ///   arranged here, before `outputs` describes the usable area and before `focus` tells
    ///   windows that fill an output their size; frame pacing clears the fifo barriers a shown
    ///   frame ends before `pixels` schedules the next frame, which then shows those updates;
    /// - `outputs`: what describes outputs to clients, and the idle and lock state kept per output;
    /// - `pixels`: capture fails or takes its frames before composition hands on the frame
    ///   callbacks of an output that went, and composition repaints last of what draws;
    /// - `focus`: after a routing step, the activated window first, then text input, the
    ///   clipboard and pointer constraints, which follow keyboard and pointer focus; and
    ///   windows of an output that went move once capture and composition let it go.
    static func ordered(input: [any ServerPart], access: [(any ServerPart)?], surfaces: [(any ServerPart)?], outputs: [any ServerPart],
                        pixels: [any ServerPart], focus: [any ServerPart]) -> [any ServerPart] {
        input + access.compactMap { $0 } + surfaces.compactMap { $0 } + outputs + pixels + focus
    }

    /// After a routing step: the parts hear of focus if it moved.
    func focusMayHaveChanged(_ now: SeatFocus) {
        guard now != focus else { return }
        focus = now
        for part in all { part.focusChanged(now) }
    }
}
