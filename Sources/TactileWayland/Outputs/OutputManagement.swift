import CWaylandServer
import Logging
import Responder
import WaylandProtocols

/// zwlr_output_manager_v1 (wlr-randr, kanshi): every output as a head with its modes and
/// settings, and whole new layouts tested or applied at once. A configuration that cannot
/// apply is refused whole (`failed`) and nothing changes; one made before the layout last
/// changed is `cancelled`. What applies becomes `Outputs.overrides`, kept for a screen that
/// comes back.
final class OutputManagement: ServerPart {
    static let version: Int32 = 4
    private let outputs: Outputs
    private let logger: Logger
    /// Places the outputs again once their settings changed (`WaylandServer.outputSettingsChanged`).
    var settingsChanged: () -> Void = {}
    private var managers: [OpaquePointer: Manager] = [:]
    private var global: Global?
    private let nextSerial: () -> UInt32
    /// The serial of the latest `done`: configurations made before it are out of date.
    private(set) var serial: UInt32

    /// One client's manager: the heads made for it, by output.
    fileprivate final class Manager {
        let resource: OpaquePointer
        var heads: [OutputID: OutputHead] = [:]
        var stopped = false
        init(resource: OpaquePointer) { self.resource = resource }
    }

    init(display: OpaquePointer, outputs: Outputs, logger: Logger) {
        self.outputs = outputs
        self.logger = logger
        nextSerial = { wl_display_next_serial(display) }
        serial = wl_display_next_serial(display)
        global = Global(display: display, interface: tactile_zwlr_output_manager_v1_interface(), version: Self.version, context: self,
                        requests: Self.requests, privilege: .outputManagement, destroyed: { resource in
                            guard let resource, let part = Global.context(of: resource, as: OutputManagement.self) else { return }
                            part.managers[resource] = nil
                        }) { [unowned self] resource, _ in
            let manager = Manager(resource: resource)
            managers[resource] = manager
            update(manager)
            zwlr_output_manager_v1_send_done(resource, serial)
        }
    }

    /// Heads come, go or change with the layout; every manager hears it, then a new serial.
    func layoutChanged() {
        var told = false
        for manager in managers.values where !manager.stopped { told = update(manager) || told }
        guard told else { return }
        serial = nextSerial()
        for manager in managers.values where !manager.stopped { zwlr_output_manager_v1_send_done(manager.resource, serial) }
    }

    /// Makes heads for new outputs, finishes those of gone ones and sends what changed;
    /// whether anything was sent.
    @discardableResult
    private func update(_ manager: Manager) -> Bool {
        var told = false
        let heads = outputs.live.map { ($0, true) } + outputs.disabled.map { ($0, false) }
        for (id, head) in manager.heads where !heads.contains(where: { $0.0.id == id }) {
            head.finish()
            manager.heads[id] = nil
            told = true
        }
        for (output, enabled) in heads {
            if let head = manager.heads[output.id] {
                told = head.describe(output.placed, enabled: enabled) || told
                continue
            }
            guard let client = wl_resource_get_client(manager.resource) else { continue }
            let head = OutputHead(output: output.id)
            guard head.bind(client: client, interface: tactile_zwlr_output_head_v1_interface(), version: wl_resource_get_version(manager.resource),
                            id: 0, implementation: OutputHead.requests) else { continue }
            zwlr_output_manager_v1_send_head(manager.resource, head.resource)
            _ = head.describe(output.placed, enabled: enabled)
            manager.heads[output.id] = head
            told = true
        }
        return told
    }

    /// Checks `configuration` against the live outputs: the settings it would apply, by
    /// output name, or why it cannot.
    fileprivate func check(_ configuration: OutputConfiguration) -> Result<[String: OutputSettings], Refusal> {
        var result: [String: OutputSettings] = [:]
        for (head, change) in configuration.heads {
            guard let id = head.output, let output = (outputs.live + outputs.disabled).first(where: { $0.id == id }) else { return .failure(Refusal("an output is gone")) }
            let d = output.placed.description
            var settings = outputs.overrides[d.name] ?? OutputSettings(name: d.name)
            settings.enabled = change != nil
            guard let change else {
                result[d.name] = settings
                continue
            }
            if let asked = change.mode {
                let mode = OutputSettings.Mode(asked)
                guard mode.pick(among: d.offeredModes) != nil else {
                    return .failure(Refusal("\(d.name): has no mode \(mode) (it offers \(OutputSettings.Mode.list(d.offeredModes)))"))
                }
                settings.mode = mode
            }
            if change.adaptiveSync == true { return .failure(Refusal("\(d.name): adaptive sync is not supported")) }
            if let transform = change.transform { settings.transform = transform }
            if let scale = change.scale {
                guard let valid = OutputSettings.scale(scale) else { return .failure(Refusal("\(d.name): scale \(scale) lies outside 1...4")) }
                settings.scale = valid
            }
            if let position = change.position {
                guard (0...1_000_000).contains(position.x), (0...1_000_000).contains(position.y) else {
                    return .failure(Refusal("\(d.name): position \(position.x),\(position.y) lies outside 0...1000000"))
                }
                settings.position = position
            }
            result[d.name] = settings
        }
        return .success(result)
    }

    fileprivate struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// apply (or test, with `applying` false): succeeded, failed or cancelled, and the layout
    /// changes at once when it applies.
    fileprivate func finish(_ configuration: OutputConfiguration, applying: Bool) {
        guard let resource = configuration.resource else { return }
        guard configuration.serial == serial else { return zwlr_output_configuration_v1_send_cancelled(resource) }
        switch check(configuration) {
        case .failure(let refusal):
            logger.info("output configuration \(applying ? "refused" : "tested, would be refused"): \(refusal.reason); nothing changes")
            zwlr_output_configuration_v1_send_failed(resource)
        case .success(let settings):
            if applying {
                let before = outputs.overrides
                outputs.overrides.merge(settings) { $1 }
                settingsChanged()
                // A screen that would not take its new mode undoes the whole configuration.
                if let stuck = settings.first(where: { name, wanted in
                    wanted.enabled != false && wanted.mode.map { !outputs.shows($0, on: name) } == true
                }) {
                    logger.warning("output configuration failed: \(stuck.key) did not take mode \(stuck.value.mode.map { "\($0)" } ?? ""); it is put back as it was")
                    outputs.overrides = before
                    settingsChanged()
                    return zwlr_output_configuration_v1_send_failed(resource)
                }
            }
            zwlr_output_configuration_v1_send_succeeded(resource)
        }
    }

    private static let requests = RequestTable(zwlr_output_manager_v1_interface(
        create_configuration: { client, resource, id, serial in
            guard let client, let resource, let part = Global.context(of: resource, as: OutputManagement.self) else { return }
            let configuration = OutputConfiguration(part: part, serial: serial)
            configuration.bind(client: client, interface: tactile_zwlr_output_configuration_v1_interface(), version: wl_resource_get_version(resource),
                               id: id, implementation: OutputConfiguration.requests)
        },
        stop: { _, resource in
            guard let resource, let part = Global.context(of: resource, as: OutputManagement.self), let manager = part.managers[resource],
                  !manager.stopped else { return }
            manager.stopped = true
            zwlr_output_manager_v1_send_finished(resource)
            wl_resource_destroy(resource)
        }
    ))
}

/// zwlr_output_head_v1: one client's view of one output, and its modes.
final class OutputHead: ResourceObject {
    /// Nil once the output went (`finished`).
    private(set) var output: OutputID?
    private var modes: [(mode: OutputMode, object: OutputModeObject)] = []
    /// Whether its name, description, make and so on were sent (once, first).
    private var named = false
    private var toldEnabled: Bool?
    /// What it was last told while enabled, so only changes are sent again.
    private var told: PlacedOutput?

    init(output: OutputID) { self.output = output }

    /// Sends what changed since last time (everything the first time): for a disabled output
    /// only that it is, for an enabled one its mode, position, transform and scale too;
    /// whether anything was sent.
    func describe(_ placed: PlacedOutput, enabled: Bool) -> Bool {
        guard let resource, output != nil else { return false }
        let d = placed.description
        var sent = false
        if !named {
            named = true
            sent = true
            zwlr_output_head_v1_send_name(resource, d.name)
            zwlr_output_head_v1_send_description(resource, d.description)
            if d.physicalSize.width > 0, d.physicalSize.height > 0 {
                zwlr_output_head_v1_send_physical_size(resource, Int32(clamping: d.physicalSize.width), Int32(clamping: d.physicalSize.height))
            }
            if version >= 2 {
                zwlr_output_head_v1_send_make(resource, d.make)
                zwlr_output_head_v1_send_model(resource, d.model)
                if !d.serial.isEmpty { zwlr_output_head_v1_send_serial_number(resource, d.serial) }
            }
        }
        for mode in d.offeredModes where !modes.contains(where: { $0.mode == mode }) {
            add(mode)
            sent = true
        }
        if toldEnabled != enabled {
            zwlr_output_head_v1_send_enabled(resource, enabled ? 1 : 0)
            toldEnabled = enabled
            // Turned on again: its state is told whole, as a client keeps none for a disabled head.
            told = nil
            sent = true
        }
        guard enabled, told?.rect.origin != placed.rect.origin || told?.description != d else { return sent }
        let old = told?.description
        let current = modes.first { $0.mode.size == d.pixelSize && $0.mode.refresh == d.refresh } ?? add(OutputMode(size: d.pixelSize, refresh: d.refresh))
        if old?.pixelSize != d.pixelSize || old?.refresh != d.refresh { zwlr_output_head_v1_send_current_mode(resource, current.object.resource) }
        if told?.rect.origin != placed.rect.origin {
            zwlr_output_head_v1_send_position(resource, Int32(clamping: placed.rect.x), Int32(clamping: placed.rect.y))
        }
        if old?.transform != d.transform { zwlr_output_head_v1_send_transform(resource, d.transform.rawValue) }
        if old?.scale != d.scale { zwlr_output_head_v1_send_scale(resource, wl_fixed_from_double(d.validScale)) }
        told = placed
        return true
    }

    @discardableResult
    private func add(_ mode: OutputMode) -> (mode: OutputMode, object: OutputModeObject) {
        let object = OutputModeObject(mode: mode)
        if let resource, let client = wl_resource_get_client(resource),
           object.bind(client: client, interface: tactile_zwlr_output_mode_v1_interface(), version: version, id: 0, implementation: OutputModeObject.requests) {
            zwlr_output_head_v1_send_mode(resource, object.resource)
            object.describe()
        }
        modes.append((mode, object))
        return (mode, object)
    }

    /// The output went: its modes and it are finished; their requests do nothing.
    func finish() {
        guard let resource, output != nil else { return }
        output = nil
        for mode in modes { mode.object.finish() }
        zwlr_output_head_v1_send_finished(resource)
    }

    /// The mode `object` names, if it is one of this head's.
    func mode(_ object: OutputModeObject) -> OutputMode? {
        modes.first { $0.object === object }?.mode
    }

    static let requests = RequestTable(zwlr_output_head_v1_interface(release: destroyResource))
}

/// zwlr_output_mode_v1: one mode of a head.
final class OutputModeObject: ResourceObject {
    let mode: OutputMode
    init(mode: OutputMode) { self.mode = mode }

    func describe() {
        guard let resource else { return }
        zwlr_output_mode_v1_send_size(resource, Int32(clamping: mode.size.width), Int32(clamping: mode.size.height))
        if mode.refresh > 0 { zwlr_output_mode_v1_send_refresh(resource, mode.refresh) }
        if mode.preferred { zwlr_output_mode_v1_send_preferred(resource) }
    }

    func finish() {
        guard let resource else { return }
        zwlr_output_mode_v1_send_finished(resource)
    }

    static let requests = RequestTable(zwlr_output_mode_v1_interface(release: destroyResource))
}

/// zwlr_output_configuration_v1: the heads a client enables (with their changes) or
/// disables, applied or tested once.
final class OutputConfiguration: ResourceObject {
    private unowned let part: OutputManagement
    let serial: UInt32
    /// Each head named, with its changes; nil: disabled.
    fileprivate private(set) var heads: [(head: OutputHead, change: OutputHeadChange?)] = []
    private var used = false

    fileprivate init(part: OutputManagement, serial: UInt32) {
        self.part = part
        self.serial = serial
    }

    private func name(_ head: OutputHead, change: OutputHeadChange?) -> Bool {
        guard !used else {
            postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue, "the configuration was applied or tested already")
            return false
        }
        guard !heads.contains(where: { $0.head === head }) else {
            postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD.rawValue, "the head is in the configuration already")
            return false
        }
        heads.append((head, change))
        return true
    }

    private func finish(applying: Bool) {
        guard !used else {
            return postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue, "the configuration was applied or tested already")
        }
        used = true
        part.finish(self, applying: applying)
    }

    static let requests = RequestTable(zwlr_output_configuration_v1_interface(
        enable_head: { client, resource, id, headResource in
            guard let client, let configuration = OutputConfiguration.from(resource), let head = OutputHead.from(headResource) else { return }
            let change = OutputHeadChange(head: head)
            guard change.bind(client: client, interface: tactile_zwlr_output_configuration_head_v1_interface(), version: configuration.version,
                              id: id, implementation: OutputHeadChange.requests) else { return }
            _ = configuration.name(head, change: change)
        },
        disable_head: { _, resource, headResource in
            guard let configuration = OutputConfiguration.from(resource), let head = OutputHead.from(headResource) else { return }
            _ = configuration.name(head, change: nil)
        },
        apply: { _, resource in OutputConfiguration.from(resource)?.finish(applying: true) },
        test: { _, resource in OutputConfiguration.from(resource)?.finish(applying: false) },
        destroy: destroyResource
    ))
}

/// zwlr_output_configuration_head_v1: the changes asked of one head, each at most once.
final class OutputHeadChange: ResourceObject {
    let head: OutputHead
    private(set) var mode: OutputMode?
    private(set) var position: Position?
    private(set) var transform: OutputTransform?
    private(set) var scale: Double?
    private(set) var adaptiveSync: Bool?

    init(head: OutputHead) { self.head = head }

    /// Whether `value` is still unset; posts already_set otherwise.
    private func unset<T>(_ value: T?, _ what: String) -> Bool {
        guard value == nil else {
            postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET.rawValue, "\(what) was set already")
            return false
        }
        return true
    }

    static let requests = RequestTable(zwlr_output_configuration_head_v1_interface(
        set_mode: { _, resource, modeResource in
            guard let change = OutputHeadChange.from(resource), change.unset(change.mode, "the mode") else { return }
            guard let object = OutputModeObject.from(modeResource), let mode = change.head.mode(object) else {
                return change.postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE.rawValue, "the mode is not one of this head's")
            }
            change.mode = mode
        },
        set_custom_mode: { _, resource, width, height, refresh in
            guard let change = OutputHeadChange.from(resource), change.unset(change.mode, "the mode") else { return }
            guard width > 0, height > 0, refresh >= 0 else {
                return change.postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE.rawValue, "custom mode \(width)x\(height)@\(refresh) mHz")
            }
            change.mode = OutputMode(size: Size(width: Int(width), height: Int(height)), refresh: refresh)
        },
        set_position: { _, resource, x, y in
            guard let change = OutputHeadChange.from(resource), change.unset(change.position, "the position") else { return }
            change.position = Position(x: Int(x), y: Int(y))
        },
        set_transform: { _, resource, transform in
            guard let change = OutputHeadChange.from(resource), change.unset(change.transform, "the transform") else { return }
            guard let value = OutputTransform(rawValue: transform) else {
                return change.postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM.rawValue, "transform \(transform) is not a wl_output.transform")
            }
            change.transform = value
        },
        set_scale: { _, resource, scale in
            guard let change = OutputHeadChange.from(resource), change.unset(change.scale, "the scale") else { return }
            let value = wl_fixed_to_double(scale)
            guard value > 0 else {
                return change.postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE.rawValue, "scale \(value) is not positive")
            }
            change.scale = value
        },
        set_adaptive_sync: { _, resource, state in
            guard let change = OutputHeadChange.from(resource), change.unset(change.adaptiveSync, "adaptive sync") else { return }
            guard state <= 1 else {
                return change.postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_ADAPTIVE_SYNC_STATE.rawValue, "adaptive sync state \(state)")
            }
            change.adaptiveSync = state == 1
        }
    ))
}
