import Responder

/// What the configuration file's `outputs` section (or `--mode`, `--transform`) asks of a
/// screen, by output name and by the make, model and serial its EDID gives (every output
/// when it names none), so an entry can follow one screen onto whatever connector it is
/// plugged into. Later entries win, setting by
/// setting. The server applies them to every output as it comes, whatever its backend, so a
/// screen that returns gets them again: scale, transform and position in the layout, mode
/// and enabled through the output's presenter (only DRM screens have other modes).
public struct OutputSettings: Sendable, Hashable {
    public var name: String?
    public var make: String?
    public var model: String?
    public var serial: String?
    public var mode: Mode?
    /// 1 to 4, whole or fractional (rounded to 120ths).
    public var scale: Double?
    public var transform: OutputTransform?
    /// Its top-left corner in the layout; left to right after the others when absent.
    public var position: Position?
    /// false: the screen stays dark and is no output.
    public var enabled: Bool?

    public init(name: String? = nil, make: String? = nil, model: String? = nil, serial: String? = nil, mode: Mode? = nil, scale: Double? = nil, transform: OutputTransform? = nil, position: Position? = nil,
                enabled: Bool? = nil) {
        self.name = name
        self.make = make
        self.model = model
        self.serial = serial
        self.mode = mode
        self.scale = scale
        self.transform = transform
        self.position = position
        self.enabled = enabled
    }

    /// The scales Tactile composes.
    public static let scales: ClosedRange<Double> = 1...4

    /// `value` as an output scale, in 120ths (wp_fractional_scale_v1's unit); nil outside
    /// `scales`. The configuration file and output managers take scales through it.
    public static func scale(_ value: Double) -> Double? {
        value.isFinite && scales.contains(value) ? (value * 120).rounded() / 120 : nil
    }

    /// `WIDTHxHEIGHT` or `WIDTHxHEIGHT@HZ`.
    public struct Mode: Sendable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        /// Whole hertz; any refresh when nil.
        public var refresh: Int?

        public init?(_ text: String) {
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), (1...16384).contains(width), (1...16384).contains(height)
            else { return nil }
            (self.width, self.height) = (width, height)
            if parts.count == 2 {
                guard let hz = Int(parts[1]), (1...1000).contains(hz) else { return nil }
                refresh = hz
            }
        }

        /// `mode` as settings keep it: its refresh in whole hertz, any refresh when it has none.
        init(_ mode: OutputMode) {
            (width, height) = (mode.size.width, mode.size.height)
            refresh = mode.refresh > 0 ? Int((Double(mode.refresh) / 1000).rounded()) : nil
        }

        public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }

        /// `modes` as the log lists them: "1280x800@60, 1024x768@60".
        static func list(_ modes: [OutputMode]) -> String {
            modes.map { "\(Self($0))" }.joined(separator: ", ")
        }

        /// The mode among `offered` this one names: its size at the refresh asked for, or at
        /// the highest refresh of that size when none was.
        func pick(among offered: [OutputMode]) -> OutputMode? {
            offered.filter { $0.size == Size(width: width, height: height) && (refresh == nil || Self($0).refresh == refresh) }
                .max { $0.refresh < $1.refresh }
        }
    }

    /// The settings for the screen `name` (with its EDID's make, model and serial): the
    /// entries whose every given identifier is the screen's, merged in order.
    public static func merged(_ entries: [OutputSettings], for name: String, make: String? = nil, model: String? = nil,
                              serial: String? = nil) -> OutputSettings {
        var result = OutputSettings(name: name)
        let matches = { (wanted: String?, actual: String?) in wanted == nil || wanted == actual }
        for entry in entries where matches(entry.name, name) && matches(entry.make, make) && matches(entry.model, model) && matches(entry.serial, serial) {
            result.mode = entry.mode ?? result.mode
            result.scale = entry.scale ?? result.scale
            result.transform = entry.transform ?? result.transform
            result.position = entry.position ?? result.position
            result.enabled = entry.enabled ?? result.enabled
        }
        return result
    }
}

extension OutputDescription {
    /// The description with `settings`' scale, transform and position over the backend's.
    func applying(_ settings: OutputSettings) -> OutputDescription {
        var result = self
        result.scale = settings.scale ?? scale
        result.transform = settings.transform ?? transform
        result.position = settings.position ?? position
        return result
    }
}
