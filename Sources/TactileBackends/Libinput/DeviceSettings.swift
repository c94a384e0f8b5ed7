import GestureConfiguration
import Responder

/// libinput settings for the devices whose name contains `match` (every device when nil).
/// Several entries may match one device; later entries win, setting by setting, so a file
/// can give defaults first and exceptions after.
public struct DeviceSettings: Sendable, Hashable {
    public enum AccelerationProfile: String, Sendable, Hashable, CaseIterable {
        case flat, adaptive
    }

    public var match: String?
    /// The output a touchscreen maps to, by wl_output name (`HEADLESS-2`, `HDMI-A-1`); a name
    /// no output has is reported in the log.
    public var output: String?
    /// libinput's calibration matrix, row-major, the first two rows of a 3×3 affine transform
    /// in normalized device coordinates (0…1).
    public var calibration: [Float]?
    /// The part of its output a tablet's whole area maps to, in the output's logical pixels
    /// as the screen shows them: a desk tablet kept to a signature box. A screen tablet's
    /// pen stays under the pen without one.
    public var region: Rect?
    /// -1 (slowest) … 1 (fastest).
    public var accelerationSpeed: Double?
    public var accelerationProfile: AccelerationProfile?
    public var tapToClick: Bool?
    public var naturalScrolling: Bool?
    /// A touchscreen's repairs before routing (bounces, jitter, ghosts, stuck contacts).
    public var filters: PanelFilterSettings

    public init(
        match: String? = nil, output: String? = nil, calibration: [Float]? = nil, region: Rect? = nil, accelerationSpeed: Double? = nil,
        accelerationProfile: AccelerationProfile? = nil, tapToClick: Bool? = nil, naturalScrolling: Bool? = nil,
        filters: PanelFilterSettings = PanelFilterSettings()
    ) {
        self.match = match
        self.output = output
        self.calibration = calibration
        self.region = region
        self.accelerationSpeed = accelerationSpeed
        self.accelerationProfile = accelerationProfile
        self.tapToClick = tapToClick
        self.naturalScrolling = naturalScrolling
        self.filters = filters
    }

    func matches(deviceName: String) -> Bool {
        match.map { deviceName.contains($0) } ?? true
    }

    /// What applies to one device: every matching entry, merged in order.
    static func merged(_ entries: [DeviceSettings], for deviceName: String) -> DeviceSettings {
        var result = DeviceSettings()
        for entry in entries where entry.matches(deviceName: deviceName) {
            result.output = entry.output ?? result.output
            result.calibration = entry.calibration ?? result.calibration
            result.region = entry.region ?? result.region
            result.accelerationSpeed = entry.accelerationSpeed ?? result.accelerationSpeed
            result.accelerationProfile = entry.accelerationProfile ?? result.accelerationProfile
            result.tapToClick = entry.tapToClick ?? result.tapToClick
            result.naturalScrolling = entry.naturalScrolling ?? result.naturalScrolling
            result.filters = result.filters.merged(with: entry.filters)
        }
        return result
    }
}
