/// Where the configuration file's `windows` puts a window of a named app or tag: on which
/// screen, and whether full screen. A kiosk with a screen per app names them, so each app
/// lands on its screen whatever order the apps start in.
public struct WindowRule: Sendable, Hashable {
    /// The xdg_toplevel app id it matches, exactly; nil matches any.
    public var appID: String?
    /// The xdg_toplevel_tag_v1 tag it matches, exactly; nil matches any.
    public var tag: String?
    /// The output, by name (`HDMI-A-1`), the window goes to while it is there.
    public var output: String?
    /// Full screen (or not) as if the app had asked; nil leaves it to the app.
    public var fullscreen: Bool?
    /// false: the touch accommodations leave its touches as the finger made them (a drawing
    /// app, a game); nil leaves them on.
    public var accommodations: Bool?
    /// Where it was written (`windows[1]`), for the log.
    public var label: String

    public init(appID: String? = nil, tag: String? = nil, output: String? = nil, fullscreen: Bool? = nil, accommodations: Bool? = nil,
                label: String = "windows") {
        self.appID = appID
        self.tag = tag
        self.output = output
        self.fullscreen = fullscreen
        self.accommodations = accommodations
        self.label = label
    }

    /// Whether it says where the window goes (not only how its touches are taken).
    public var places: Bool { output != nil || fullscreen != nil }

    func matches(appID: String?, tag: String?) -> Bool {
        (self.appID == nil || self.appID == appID) && (self.tag == nil || self.tag == tag)
    }
}

extension Array where Element == WindowRule {
    /// The first rule that names the window's app id or tag and says where it goes: file
    /// order decides.
    func first(appID: String?, tag: String?) -> WindowRule? {
        guard appID != nil || tag != nil else { return nil }
        return first { $0.places && $0.matches(appID: appID, tag: tag) }
    }
}
