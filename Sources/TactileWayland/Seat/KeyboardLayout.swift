/// An XKB rule set, model, layout, variant and options (RMLVO); nil means "the default".
public struct KeyboardLayout: Sendable, Hashable {
    public var rules: String?
    public var model: String?
    public var layout: String?
    public var variant: String?
    public var options: String?

    public init(rules: String? = nil, model: String? = nil, layout: String? = nil, variant: String? = nil, options: String? = nil) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }
}
