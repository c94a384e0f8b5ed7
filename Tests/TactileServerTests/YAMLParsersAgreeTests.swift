import GestureConfiguration
import TactileServer
import Testing

/// The server reads its file's `gestures:` with its configuration reader and libtactile with
/// its gestures list reader, over the one libyaml composer: the same list must give the same
/// gestures, or be refused at the same place in the same words.
@Suite struct YAMLParsersAgreeTests {
    /// What a reading came to, compared as text: each gesture, or the error.
    static func outcome(_ read: () throws -> [GestureBinding]) -> String {
        do {
            return try read().map { g in
                "\(g.name) \(g.recognizer) \(g.options) \(g.device) \(g.action) \(g.actsWhen) \(g.simultaneousWith) \(g.requiresFailureOf)"
            }.joined(separator: "\n")
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        "gestures:\n  - name: back\n    kind: edge-swipe\n    edge: left\n    distance: 0x50\n    start-band: 1_0\n    run: echo back\n",
        "gestures:\n  - name: a\n    kind: edge-swipe\n    edge: middle\n",
        "gestures:\n  - name: a\n    kind: edge-swipe\n    edge: left\n    distanse: 80\n",
        "gestures:\n  - name: a\n    kind: tap\n    name: b\n",
        "gestures:\n  - name: a\n    kind: tap\n    \"name\": b\n",
        "gestures:\n  - name: a\n    kind: tap\n    1: x\n    \"1\": y\n",
        "gestures: [\n  - a\n",
        "gestures:\n  - name: a\n    kind: tap\n    input-types: &both [touch, pen]\n  - name: b\n    kind: tap\n    input-types: *both\n",
        "gestures:\n  - name: a\n    kind: tap\n    input-types: *nothing\n",
        "gestures:\n  - &tap {name: a, kind: tap}\n  - *tap\n",
        "gestures:\n  - name: a\n    kind: tap\n    cancels-touches-in-view: \"true\"\n",
        "gestures:\n  - name: a\n    kind: tap\n    cancels-touches-in-view: Off\n    delays-touches-began: !!str true\n",
        "gestures:\n  - name: a\n    kind: tap\n    taps: 010\n    interval: 1:00\n    slop: .inf\n",
        "gestures:\n  - name: a\n    kind: tap\n    taps: \"2\"\n",
        "gestures:\n  - name: a\u{1}\n    kind: tap\n",
        "gestures: []\n---\ngestures: []\n",
        "gestures:\n  - name:\n    kind: tap\n",
        "# nothing\n",
        "",
    ])
    func bothParsersReadAGesturesListAlike(yaml: String) {
        let server = Self.outcome { try ConfigurationFile.parse(yaml, file: "kiosk.yaml").gestures }
        let library = Self.outcome { try YAMLReader.gestures(fromYAML: yaml, file: "kiosk.yaml") }
        #expect(server == library)
    }

    /// The errors above name their place: the comparison is of messages, not of two empty
    /// answers.
    @Test func aBadKeyIsNamedWithItsPlace() {
        let yaml = "gestures:\n  - name: a\n    kind: edge-swipe\n    edge: left\n    distanse: 80\n"
        #expect(Self.outcome { try YAMLReader.gestures(fromYAML: yaml, file: "kiosk.yaml") }.hasPrefix("kiosk.yaml:5:5: gestures[0].distanse: unknown key"))
    }
}
