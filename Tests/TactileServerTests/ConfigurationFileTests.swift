import Foundation
import Responder
@testable import TactileBackends
import TactileServer
import TactileWayland
import Testing

/// The touch filters' keys, as every unknown key's message lists them after the rest.
private let filterKeys = "debounce, debounce-radius, jitter, smoothing, min-cutoff, beta, dead-zones, min-contact, stuck-after"

/// The configuration file: what it sets, and that every mistake names its line, column and key.
@Suite struct ConfigurationFileTests {
    func error(_ yaml: String) -> String {
        do {
            _ = try ConfigurationFile.parse(yaml, file: "kiosk.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// The example shipped in examples/ loads, and its values reach the server configuration.
    @Test func theExampleLoadsIntoTheServerConfiguration() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/kiosk.yaml").path
        let file = try ConfigurationFile.load(path)
        let configuration = file.applied(to: ServerConfiguration(keyboardLayout: KeyboardLayout(layout: "de")))
        #expect(configuration.gestures.map(\.name) == ["next-app", "launcher", "close-app", "zoom", "staff-menu", "touchpad-next-app"])
        #expect(configuration.gestures.map(\.action) == [
            .focusNext, .run("echo \"launcher at $TACTILE_GESTURE_X\" >&2"), .closeFocused, .none, .run("echo \"staff menu\" >&2"), .focusNext,
        ])
        #expect(configuration.gestures.map(\.device) == [.touchscreen, .touchscreen, .touchscreen, .touchscreen, .touchscreen, .touchpad])
        #expect((configuration.gestures[5].recognizer as? Swipe).map { ($0.fingers, $0.direction, $0.distance) } ?? (0, nil, 0) == (3, .left, 200))
        let launcher = configuration.gestures[1]
        #expect(launcher.options == GestureOptions(cancelsTouchesInView: true, delaysTouchesBegan: true, delaysTouchesEnded: true))
        #expect(launcher.actsWhen == .ended)
        #expect((launcher.recognizer as? EdgeSwipe).map { ($0.edge, $0.startBand, $0.distance) } ?? (.top, 0, 0) == (.bottom, 24, 120))
        let swipe = configuration.gestures[2].recognizer as? Swipe
        #expect(swipe?.fingers == 3 && swipe?.direction == .down && swipe?.distance == 150)
        #expect(configuration.gestures[3].options.cancelsTouchesInView == false)
        #expect((configuration.gestures[4].recognizer as? Tap)?.count == 3)
        #expect(configuration.routingPolicy.edgeDeferralLimit == 200)
        #expect(DeviceSettings.merged(file.devices, for: "Wacom One by Wacom S Pen").region == Rect(x: 400, y: 300, width: 480, height: 300))
        #expect(configuration.keyboardLayout.layout == "de", "the command line wins over the file")
        #expect(configuration.newWindowFocus == .never)
        let egalax = DeviceSettings.merged(file.devices, for: "eGalax Touch")
        #expect(egalax.output == "HEADLESS-1" && egalax.calibration == [-1, 0, 1, 0, -1, 1] && egalax.naturalScrolling == false)
        #expect(egalax.filters.touchFilters(on: Rect(x: 0, y: 0, width: 1280, height: 800)).settings == TouchFilterSettings(
            debounce: .milliseconds(60), debounceRadius: 24, jitter: 6, smoothing: OneEuroSettings(minimumCutoff: 1, beta: 0.02),
            deadZones: [Rect(x: 0, y: 0, width: 40, height: 40)], minimumContact: .milliseconds(20), stuckAfter: .seconds(30)))
        #expect(OutputSettings.merged(file.outputs, for: "DSI-1") == OutputSettings(name: "DSI-1", scale: 2, transform: .rotated90, position: Position(x: 1920, y: 0)))
        #expect(file.outputs.map(\.name) == ["HDMI-A-1", "DSI-1", "HDMI-A-2"])
    }

    /// `accessibility:` reaches the server with its defaults filled in, `touch.secondary-click`
    /// its routing policy (0: off), and a window rule may only exempt an app; mistakes name
    /// their place.
    @Test func accommodationsAndTheSecondaryClickReachTheServer() throws {
        let file = try ConfigurationFile.parse("""
            touch:
              secondary-click: 600
            accessibility:
              hold-duration: 300
              ignore-repeat: 500
              ignore-repeat-radius: 60
              tap-assistance: final
            windows:
              - app-id: org.example.Paint
                accommodations: false
            """, file: "kiosk.yaml")
        let server = file.applied(to: ServerConfiguration())
        #expect(server.accommodations == AccommodationSettings(holdDuration: .milliseconds(300), holdSlop: 24, ignoreRepeat: .milliseconds(500),
                                                               ignoreRepeatRadius: 60, tapAssistance: .final, tapAssistanceDelay: .milliseconds(300)))
        #expect(server.routingPolicy.secondaryClick == .milliseconds(600))
        #expect(server.windowRules == [WindowRule(appID: "org.example.Paint", accommodations: false, label: "windows[0]")])
        let off = try ConfigurationFile.parse("touch:\n  secondary-click: 0\naccessibility:\n  hold-duration: 0\n  tap-assistance: off\n", file: "kiosk.yaml")
        #expect(off.applied(to: server).routingPolicy.secondaryClick == nil)
        #expect(off.applied(to: server).accommodations.isEmpty)
        #expect(error("accessibility:\n  hold-duration: 50\n") == "kiosk.yaml:2:18: accessibility.hold-duration: expected 0 (off) or a whole number of milliseconds from 100 to 4000, got '50'")
        #expect(error("accessibility:\n  tap-assistance: middle\n") == "kiosk.yaml:2:19: accessibility.tap-assistance: expected one of off, initial, final, got 'middle'")
        #expect(error("accessibility:\n  tap-assistance-delay: 200\n").hasPrefix("kiosk.yaml:2:3: accessibility.tap-assistance-delay: tap-assistance-delay tunes tap-assistance, which is off here"))
        #expect(error("accessibility:\n  hold: 300\n").hasPrefix("kiosk.yaml:2:3: accessibility.hold: unknown key (expected one of: hold-duration, hold-duration-slop, ignore-repeat, "))
        #expect(error("touch:\n  secondary-click: 50\n") == "kiosk.yaml:2:20: touch.secondary-click: expected 0 (off) or a whole number of milliseconds from 200 to 4000, got '50'")
        #expect(error("windows:\n  - app-id: x\n").contains("a window rule says where they go (output, fullscreen) or how their touches are taken (accommodations)"))
    }

    /// `touch.feedback: ripple` reaches the server; it is off unless the file says so.
    @Test func touchFeedbackIsOffUnlessTheFileAsksForRipple() throws {
        let ripple = try ConfigurationFile.parse("touch:\n  feedback: ripple\n", file: "kiosk.yaml")
        #expect(ripple.applied(to: ServerConfiguration()).touchFeedback == .ripple)
        let silent = try ConfigurationFile.parse("touch:\n  pointer-emulation: true\n", file: "kiosk.yaml")
        #expect(silent.applied(to: ServerConfiguration()).touchFeedback == .off)
    }

    @Test func gesturesMayReferToEachOtherByName() throws {
        let file = try ConfigurationFile.parse("""
            gestures:
              - {name: single, kind: tap, requires-failure-of: [double]}
              - {name: double, kind: tap, taps: 2, simultaneous-with: [single]}
            """, file: "kiosk.yaml")
        #expect(file.gestures.map(\.requiresFailureOf) == [["double"], []])
        #expect(file.gestures.map(\.simultaneousWith) == [[], ["single"]])
    }

    /// Device settings apply to the devices whose name contains `match` (all without one),
    /// later entries winning setting by setting: defaults first, exceptions after.
    @Test func deviceSettingsMergeInOrderForTheDevicesTheyMatch() throws {
        let file = try ConfigurationFile.parse("""
            devices:
              - {natural-scroll: true, accel-profile: adaptive}
              - match: Touchpad
                tap-to-click: true
                accel-speed: -0.5
                natural-scroll: false
              - match: eGalax
                output: HEADLESS-1
                calibration: [0, 1, 0, -1, 0, 1]
              - match: Intuos
                region: [800, 500, 400, 250]
            """, file: "kiosk.yaml")
        #expect(DeviceSettings.merged(file.devices, for: "SynPS/2 Synaptics Touchpad")
            == DeviceSettings(accelerationSpeed: -0.5, accelerationProfile: .adaptive, tapToClick: true, naturalScrolling: false))
        #expect(DeviceSettings.merged(file.devices, for: "eGalax Inc. USB TouchController")
            == DeviceSettings(output: "HEADLESS-1", calibration: [0, 1, 0, -1, 0, 1], accelerationProfile: .adaptive, naturalScrolling: true))
        #expect(DeviceSettings.merged(file.devices, for: "Wacom Intuos S Pen").region == Rect(x: 800, y: 500, width: 400, height: 250))
    }

    /// A touchscreen's filters: later entries win setting by setting, 0 turns one off, stuck
    /// contacts end after 30 s unless an entry says otherwise, and dead zones are placed on
    /// the touchscreen's output.
    @Test func touchFiltersMergeAndLandOnTheOutput() throws {
        let file = try ConfigurationFile.parse("""
            devices:
              - {debounce: 40, jitter: 6, smoothing: one-euro, beta: 0.05}
              - match: ILITEK
                debounce: 0
                debounce-radius: 30
                dead-zones: [[0, 0, 40, 40], [1240, 0, 40, 40]]
                min-contact: 25
                stuck-after: 10
              - match: eGalax
                smoothing: off
                stuck-after: 0
            """, file: "kiosk.yaml")
        let output = Rect(x: 1280, y: 0, width: 1280, height: 800)
        let ilitek = DeviceSettings.merged(file.devices, for: "ILITEK Multi-Touch").filters.touchFilters(on: output)
        #expect(ilitek.settings == TouchFilterSettings(
            debounce: nil, debounceRadius: 30, jitter: 6, smoothing: OneEuroSettings(beta: 0.05),
            deadZones: [Rect(x: 1280, y: 0, width: 40, height: 40), Rect(x: 2520, y: 0, width: 40, height: 40)],
            minimumContact: .milliseconds(25), stuckAfter: .seconds(10)))
        #expect(ilitek.offScreen.isEmpty)
        let egalax = DeviceSettings.merged(file.devices, for: "eGalax Inc.").filters.touchFilters(on: output).settings
        #expect(egalax == TouchFilterSettings(debounce: .milliseconds(40), jitter: 6))
        let other = DeviceSettings.merged([], for: "Goodix Capacitive TouchScreen").filters.touchFilters(on: output).settings
        #expect(other == TouchFilterSettings(stuckAfter: .seconds(30)))
        // A zone beyond a smaller screen is left out, named with where the file gave it.
        let small = DeviceSettings.merged(file.devices, for: "ILITEK").filters.touchFilters(on: Rect(x: 0, y: 0, width: 800, height: 480))
        #expect(small.settings.deadZones == [Rect(x: 0, y: 0, width: 40, height: 40)])
        #expect(small.offScreen.map(\.origin) == ["kiosk.yaml:6:34 devices[1].dead-zones[1]"])
    }

    @Test func outputSettingsMergeInOrderForTheScreensTheyName() throws {
        let file = try ConfigurationFile.parse("""
            outputs:
              - {scale: 2}
              - name: HDMI-A-1
                mode: 1920x1080@60
                position: [1280, 0]
              - name: DP-1
                enabled: false
                transform: flipped-270
              - {name: HDMI-A-1, transform: "180"}
            """, file: "kiosk.yaml")
        #expect(OutputSettings.merged(file.outputs, for: "HDMI-A-1")
            == OutputSettings(name: "HDMI-A-1", mode: OutputSettings.Mode("1920x1080@60"), scale: 2, transform: .rotated180,
                              position: Position(x: 1280, y: 0)))
        #expect(OutputSettings.merged(file.outputs, for: "DP-1") == OutputSettings(name: "DP-1", scale: 2, transform: .flipped270, enabled: false))
        #expect(OutputSettings.Mode("1920x1080").map { ($0.width, $0.height, $0.refresh) } ?? (0, 0, 0) == (1920, 1080, nil))
        for nonsense in ["1920", "x1080", "0x0", "99999x10", "1920x1080@", "1920x1080@0", "1920x1080@60@60", "-1x5", "1920xx1080", ""] {
            #expect(OutputSettings.Mode(nonsense) == nil, "\(nonsense)")
        }
    }

    /// `windows`: rules in file order, each labelled with its place for the log.
    @Test func windowRulesKeepTheirOrderAndReachTheServer() throws {
        let file = try ConfigurationFile.parse("""
            windows:
              - tag: menu board
                output: HDMI-A-2
                fullscreen: true
              - {app-id: org.example.till, output: HDMI-A-1}
            """, file: "kiosk.yaml")
        let expected = [WindowRule(tag: "menu board", output: "HDMI-A-2", fullscreen: true, label: "windows[0]"),
                        WindowRule(appID: "org.example.till", output: "HDMI-A-1", label: "windows[1]")]
        #expect(file.windows == expected)
        #expect(file.applied(to: ServerConfiguration(kioskMode: true)).windowRules == expected)
    }

    /// An entry may name a screen by what its EDID says instead of its connector.
    @Test func outputEntriesMatchByMakeModelAndSerial() throws {
        let file = try ConfigurationFile.parse("""
            outputs:
              - {make: DEL, model: U2415, transform: 90}
              - {make: DEL, model: U2415, serial: 7MT0185K, scale: 2}
            """, file: "kiosk.yaml")
        let dell = OutputSettings.merged(file.outputs, for: "HDMI-A-2", make: "DEL", model: "U2415", serial: "7MT0185K")
        #expect(dell == OutputSettings(name: "HDMI-A-2", scale: 2, transform: .rotated90))
        let twin = OutputSettings.merged(file.outputs, for: "DP-1", make: "DEL", model: "U2415", serial: "OTHER")
        #expect(twin == OutputSettings(name: "DP-1", transform: .rotated90), "the same model, another serial: the first entry only")
        #expect(OutputSettings.merged(file.outputs, for: "DP-1", make: "RHT", model: "QEMU Monitor") == OutputSettings(name: "DP-1"))
    }

    @Test func theCursorPolicyComesFromTheFileAndTheCommandLineWins() throws {
        let file = try ConfigurationFile.parse("cursor: never\n", file: "kiosk.yaml")
        #expect(file.applied(to: ServerConfiguration()).cursor == .never)
        #expect(ServerConfiguration().cursor == .auto, "auto unless asked")
        var options = try ServerOptions.parse(["--cursor", "always"])
        #expect(options.configuration(from: file).cursor == .always)
        options = try ServerOptions.parse(["--transform", "flipped-90"])
        #expect(options.configuration(from: nil).outputs == [OutputSettings(transform: .flipped90)], "--transform, for every output")
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--transform", "45"]) }
    }

    @Test func theIdleSectionSetsTheTimeoutAndWhatTheWakingInputDoes() throws {
        let file = try ConfigurationFile.parse("idle:\n  timeout: 300\n  wake: deliver\n", file: "kiosk.yaml")
        #expect(file.applied(to: ServerConfiguration()).idle == IdleSettings(timeout: 300, wake: .deliver))
        let swallowing = try ConfigurationFile.parse("idle:\n  timeout: 30\n", file: "kiosk.yaml")
        #expect(swallowing.applied(to: ServerConfiguration()).idle == IdleSettings(timeout: 30, wake: .swallow), "swallow unless told")
        #expect(ServerConfiguration().idle.timeout == nil, "no sleep unless asked")
    }

    /// A kiosk's day: the session that starts over, cleaning, the staff door with the knock
    /// a configured gesture does not replace.
    @Test func theKioskDaySectionsReachTheServer() throws {
        let hash = try #require(StaffPin.hash("1357"))
        let file = try ConfigurationFile.parse("""
            session:
              reset-after: 120
              warning: 15
              text: Noch da?
              countdown: Neustart in {seconds} s
              reset-run: chromium-reset
            cleaning:
              duration: 45
              end-hold: 5
            staff:
              pin: '\(hash)'
              corner: bottom-left
              taps: 3
              opens: restart
            """, file: "kiosk.yaml")
        let applied = file.applied(to: ServerConfiguration())
        #expect(applied.sessionReset == SessionResetSettings(resetAfter: 120, warning: 15, text: "Noch da?", countdown: "Neustart in {seconds} s"))
        #expect(file.sessionResetRun == "chromium-reset")
        #expect(applied.cleaning == CleaningSettings(duration: 45, endHold: 5))
        #expect(applied.staff == StaffSettings(pinHash: hash, corner: .bottomLeft, taps: 3, opens: .restart))
        let knock = try #require(applied.gestures.first { $0.action == .staffDoor }, "the default knock")
        #expect(knock.name == "staff-door")
        #expect((knock.recognizer as? LongPress)?.corner?.corner == .bottomLeft)
        #expect(ServerConfiguration().sessionReset.resetAfter == nil && ServerConfiguration().staff == nil, "off unless asked")
        let own = try ConfigurationFile.parse("""
            staff:
              pin: '\(hash)'
              run: foot
            gestures:
              - name: knock
                kind: long-press
                corner: top-left
                action: staff-door
            """, file: "kiosk.yaml").applied(to: ServerConfiguration())
        #expect(own.gestures.map(\.name) == ["knock"], "a configured door gesture replaces the default")
        #expect(own.staff?.opens == .run("foot"))
    }

    /// Each family names who may bind it; the families not named keep the server's default.
    @Test func thePrivilegesSectionSaysWhoMayBindEachFamily() throws {
        let file = try ConfigurationFile.parse("""
            privileges:
              screen-capture: everyone
              input-injection: [started, /usr/bin/wvkbd-mobintl]
              window-management: started
              session-lock: []
            """, file: "kiosk.yaml")
        var base = ServerConfiguration()
        base.privileges.grants[.layerShell] = .only(started: true, executables: [])
        let privileges = file.applied(to: base).privileges
        #expect(privileges.grant(for: .screenCapture) == .everyone)
        #expect(privileges.grant(for: .inputInjection) == .only(started: true, executables: ["/usr/bin/wvkbd-mobintl"]))
        #expect(privileges.grant(for: .windowManagement) == .only(started: true, executables: []))
        #expect(privileges.grant(for: .sessionLock) == .only(started: false, executables: []), "an empty list: nobody")
        #expect(privileges.grant(for: .layerShell) == .only(started: true, executables: []), "not named: the default stays")
        #expect(privileges.grant(for: .inspector) == PrivilegePolicy.standard.grant(for: .inspector))
    }

    @Test(arguments: [
        ("privileges:\n  screen-capture: grim\n",
         "kiosk.yaml:2:19: privileges.screen-capture: expected everyone, started, an absolute path to an executable, or a list of started and paths, got 'grim'"),
        ("privileges:\n  input-injection: [started, everyone]\n",
         "kiosk.yaml:2:30: privileges.input-injection[1]: expected everyone, started, an absolute path to an executable, or a list of started and paths, got 'everyone'"),
        ("privileges:\n  clipboard: everyone\n",
         "kiosk.yaml:2:3: privileges.clipboard: unknown key (expected one of: input-injection, screen-capture, window-management, input-method, layer-shell, output-management, session-lock, clipboard-control, touch-calibration, inspector, security-context)"),
        ("idle:\n  timeout: 0\n", "kiosk.yaml:2:12: idle.timeout: expected a whole number from 1 to 86400, got '0'"),
        ("session:\n  warning: 10\n", "kiosk.yaml:2:3: session.reset-after: missing: the seconds without input before the session starts over"),
        ("session:\n  reset-after: 0\n", "kiosk.yaml:2:16: session.reset-after: expected a whole number from 1 to 86400, got '0'"),
        ("cleaning:\n  duration: 0\n", "kiosk.yaml:2:13: cleaning.duration: expected a whole number from 1 to 3600, got '0'"),
        ("staff:\n  pin: 1234\n", "kiosk.yaml:2:8: staff.pin: expected the PIN's salted hash that `tactile staff-pin` prints, got '1234'"),
        ("staff:\n  opens: exit\n", "kiosk.yaml:2:3: staff.pin: missing: the PIN's salted hash that `tactile staff-pin` prints"),
        ("gestures:\n  - name: k\n    kind: long-press\n    corner: middle\n",
         "kiosk.yaml:4:13: gestures[0].corner: expected one of top-left, top-right, bottom-left, bottom-right, got 'middle'"),
        ("idle:\n  wake: touch\n", "kiosk.yaml:2:9: idle.wake: expected one of swallow, deliver, got 'touch'"),
        ("idle:\n  dpms: off\n", "kiosk.yaml:2:3: idle.dpms: unknown key (expected one of: timeout, wake)"),
        ("cursor: sometimes\n", "kiosk.yaml:1:9: cursor: expected one of auto, always, never, got 'sometimes'"),
        ("bell: flash\n", "kiosk.yaml:1:7: bell: expected one of log, off, got 'flash'"),
        ("outputs:\n  - mode: big\n", "kiosk.yaml:2:11: outputs[0].mode: expected a mode such as 1920x1080 or 1920x1080@60, got 'big'"),
        ("outputs:\n  - position: [0.5, 0]\n", "kiosk.yaml:2:15: outputs[0].position: expected two whole numbers of pixels"),
        ("outputs:\n  - scale: 9\n", "kiosk.yaml:2:12: outputs[0].scale: expected a number from 1 to 4, such as 2 or 1.5, got '9'"),
        ("outputs:\n  - rotate: 90\n", "kiosk.yaml:2:5: outputs[0].rotate: unknown key (expected one of: name, make, model, serial, mode, scale, transform, position, enabled)"),
        ("outputs:\n  - transform: 45\n", "kiosk.yaml:2:16: outputs[0].transform: expected one of normal, 90, 180, 270, flipped, flipped-90, flipped-180, flipped-270, got '45'"),
        ("devices:\n  - calibration: [1, 0, 0, 0, 1]\n", "kiosk.yaml:2:18: devices[0].calibration: expected a list of 6 numbers"),
        ("devices:\n  - calibration: [1, 0, 0, 0, 1, x]\n", "kiosk.yaml:2:34: devices[0].calibration[5]: expected a number, got 'x'"),
        ("devices:\n  - accel-speed: 2\n", "kiosk.yaml:2:18: devices[0].accel-speed: expected a number from -1 to 1, got '2'"),
        ("devices:\n  - accel-profile: sticky\n", "kiosk.yaml:2:20: devices[0].accel-profile: expected one of flat, adaptive, got 'sticky'"),
        ("devices:\n  - tap: true\n", "kiosk.yaml:2:5: devices[0].tap: unknown key (expected one of: match, output, calibration, region, accel-speed, accel-profile, tap-to-click, natural-scroll, \(filterKeys))"),
        ("devices:\n  - {zzz: 1, tap: true, aaa: 2}\n", "kiosk.yaml:2:6: devices[0].zzz: unknown key (expected one of: match, output, calibration, region, accel-speed, accel-profile, tap-to-click, natural-scroll, \(filterKeys))"),
        ("devices:\n  - debounce: -40\n", "kiosk.yaml:2:15: devices[0].debounce: expected a whole number of milliseconds from 0 to 500, got '-40'"),
        ("devices:\n  - debounce: 40ms\n", "kiosk.yaml:2:15: devices[0].debounce: expected a whole number of milliseconds from 0 to 500, got '40ms'"),
        ("devices:\n  - jitter: lots\n", "kiosk.yaml:2:13: devices[0].jitter: expected a number from 0 to 200, got 'lots'"),
        ("devices:\n  - smoothing: kalman\n", "kiosk.yaml:2:16: devices[0].smoothing: expected one-euro or off, got 'kalman'"),
        ("devices:\n  - beta: 0.5\n", "kiosk.yaml:2:5: devices[0].beta: beta tunes smoothing: one-euro, which this entry does not set"),
        ("devices:\n  - dead-zones: [[0, 0, 10]]\n", "kiosk.yaml:2:18: devices[0].dead-zones[0]: expected [x, y, width, height], four whole numbers of pixels"),
        ("devices:\n  - dead-zones: [[-50, 0, 10, 10]]\n",
         "kiosk.yaml:2:18: devices[0].dead-zones[0]: the dead zone starts left of or above its screen (x and y are from the screen's top-left corner, at least 0)"),
        ("devices:\n  - dead-zones: [[0, 0, 0, 10]]\n", "kiosk.yaml:2:18: devices[0].dead-zones[0]: the dead zone's width and height must be at least 1"),
        ("devices:\n  - dead-zones: [0, 0, 10, 10]\n", "kiosk.yaml:2:18: devices[0].dead-zones[0]: expected [x, y, width, height], four whole numbers of pixels"),
        ("devices:\n  - min-contact: 1000\n", "kiosk.yaml:2:18: devices[0].min-contact: expected a whole number of milliseconds from 0 to 500, got '1000'"),
        ("devices:\n  - stuck-after: 2.5\n", "kiosk.yaml:2:18: devices[0].stuck-after: expected a whole number of seconds from 0 (off) to 3600, got '2.5'"),
        ("devices:\n  - region: [0, 0, 0, 100]\n", "kiosk.yaml:2:13: devices[0].region: expected [x, y, width, height], whole pixels, width and height at least 1"),
        ("devices:\n  - region: [0, 0, 100]\n", "kiosk.yaml:2:13: devices[0].region: expected a list of 4 numbers"),
        ("gestures:\n  - name: a\n    kind: edge-swipe\n    edge: left\n    distanse: 80\n",
         "kiosk.yaml:5:5: gestures[0].distanse: unknown key (expected one of: name, kind, action, run, when, cancels-touches-in-view, delays-touches-began, delays-touches-ended, input-types, simultaneous-with, requires-failure-of, edge, start-band, distance)"),
        ("gestures:\n  - name: a\n    kind: swipe\n    device: mouse\n", "kiosk.yaml:4:13: gestures[0].device: expected one of touchscreen, touchpad, got 'mouse'"),
        ("gestures:\n  - name: a\n    kind: tap\n    device: touchpad\n",
         "kiosk.yaml:4:5: gestures[0].device: unknown key (expected one of: name, kind, action, run, when, cancels-touches-in-view, delays-touches-began, delays-touches-ended, input-types, simultaneous-with, requires-failure-of, taps, interval, max-duration, slop, max-distance)"),
        ("gestures:\n  - name: a\n    kind: tap\n    taps: many\n", "kiosk.yaml:4:11: gestures[0].taps: expected a whole number from 1 to 10, got 'many'"),
        ("gestures:\n  - name: a\n    kind: edge-swipe\n    edge: middle\n", "kiosk.yaml:4:11: gestures[0].edge: expected one of left, right, top, bottom, got 'middle'"),
        ("gestures:\n  - name: a\n    kind: edge-swipe\n", "kiosk.yaml:2:5: gestures[0].edge: missing: left, right, top or bottom"),
        ("gestures:\n  - name: a\n    kind: wiggle\n", "kiosk.yaml:3:11: gestures[0].kind: 'wiggle' is not a gesture kind (edge-swipe, swipe, pinch, long-press, tap)"),
        ("gestures:\n  - name: a\n    kind: long-press\n    duration: -5\n", "kiosk.yaml:4:15: gestures[0].duration: expected a whole number of milliseconds from 1 to 60000, got '-5'"),
        ("gestures:\n  - name: a\n    kind: tap\n    action: reboot\n", "kiosk.yaml:4:13: gestures[0].action: 'reboot' is not an action (none, focus-next, close-focused, clean-screen, staff-door; or run: COMMAND)"),
        ("gestures:\n  - name: a\n    kind: tap\n  - name: a\n    kind: tap\n", "kiosk.yaml:4:11: gestures[1].name: 'a' is already the name of the gesture on line 2"),
        ("gestures:\n  - name: a\n    kind: tap\n    requires-failure-of: [b]\n", "kiosk.yaml:4:27: gestures[0].requires-failure-of[0]: no gesture is named 'b'"),
        ("touch:\n  pointer-emulation: sometimes\n", "kiosk.yaml:2:22: touch.pointer-emulation: expected true or false, got 'sometimes'"),
        ("touch:\n  feedback: sparkles\n", "kiosk.yaml:2:13: touch.feedback: expected one of off, ripple, got 'sparkles'"),
        ("touch:\n  pointer-emulation: true\n  pointer-emulation: false\n", "kiosk.yaml:2:3: a key is given twice in this mapping: pointer-emulation"),
        ("pen:\n  palm-rejection: mostly\n", "kiosk.yaml:2:19: pen.palm-rejection: expected true or false, got 'mostly'"),
        ("gestures:\n  - name: a\n    kind: tap\n    input-types: [touch, mouse]\n",
         "kiosk.yaml:4:26: gestures[0].input-types[1]: expected touch or pen, got 'mouse'"),
        ("gestures:\n  - name: a\n    kind: tap\n    input-types: []\n", "kiosk.yaml:4:18: gestures[0].input-types: expected touch, pen or both, got an empty list"),
        ("gestures: [\n  - a\n", "kiosk.yaml:2:3: not valid YAML: did not find expected node content"),
        ("- just\n- a list\n", "kiosk.yaml:1:1: expected a mapping of keys to values, got a list"),
        ("metrics:\n  listen: localhost:9464\n", "kiosk.yaml:2:11: metrics.listen: expected a port (loopback), or an address and port such as 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464, got 'localhost:9464'"),
        ("metrics:\n  listen: 127.0.0.1:70000\n", "kiosk.yaml:2:11: metrics.listen: expected a port (loopback), or an address and port such as 127.0.0.1:9464, 0.0.0.0:9464 or [::1]:9464, got '127.0.0.1:70000'"),
        ("metrics:\n  textfile: tactile.prom\n", "kiosk.yaml:2:13: metrics.textfile: expected an absolute path, got 'tactile.prom'"),
        ("metrics:\n  port: 9464\n", "kiosk.yaml:2:3: metrics.port: unknown key (expected one of: listen, textfile)"),
        ("windows:\n  - output: HDMI-A-1\n", "kiosk.yaml:2:5: windows[0]: a window rule names the windows it is for: app-id, tag or both"),
        ("windows:\n  - app-id: foot\n", "kiosk.yaml:2:5: windows[0]: a window rule says where they go (output, fullscreen) or how their touches are taken (accommodations)"),
        ("windows:\n  - app-id: foot\n    screen: DP-1\n", "kiosk.yaml:3:5: windows[0].screen: unknown key (expected one of: app-id, tag, output, fullscreen, accommodations)"),
        ("windows:\n  - {tag: menu, fullscreen: maybe}\n", "kiosk.yaml:2:29: windows[0].fullscreen: expected true or false, got 'maybe'"),
        ("windows: foot\n", "kiosk.yaml:1:10: windows: expected a list of window rules"),
    ])
    func mistakesNameTheirLineColumnAndKey(yaml: String, expected: String) {
        #expect(error(yaml) == expected)
    }

    /// Where the metrics are served: a bare port is loopback's; addresses are numeric.
    @Test func metricsListenOnTheAddressGiven() throws {
        func listen(_ value: String) throws -> String? {
            try ConfigurationFile.parse("metrics:\n  listen: \(value)\n", file: "kiosk.yaml").metrics?.listen?.description
        }
        #expect(try listen("9464") == "127.0.0.1:9464")
        #expect(try listen("0.0.0.0:9464") == "0.0.0.0:9464")
        #expect(try listen("\"[::1]:9464\"") == "[::1]:9464")
        #expect(try ConfigurationFile.parse("metrics:\n  listen: 9464\n", file: "kiosk.yaml").metrics?.listen?.isLoopback == true)
        #expect(try ConfigurationFile.parse("metrics:\n  listen: 0.0.0.0:9464\n", file: "kiosk.yaml").metrics?.listen?.isLoopback == false)
    }

    /// A gesture takes touches only, unless its input-types says pens too (or only).
    @Test func gesturesTakeWhatTheirInputTypesSay() throws {
        let yaml = "gestures:\n  - name: a\n    kind: tap\n  - name: b\n    kind: tap\n    input-types: pen\n  - name: c\n    kind: tap\n    input-types: [touch, pen]\n"
        let gestures = try ConfigurationFile.parse(yaml, file: "kiosk.yaml").applied(to: ServerConfiguration()).gestures
        #expect(gestures.map(\.options.inputTypes) == [.touch, .pen, [.touch, .pen]])
    }

    /// Palm rejection is on unless the file turns it off.
    @Test func palmRejectionIsOnUnlessTurnedOff() throws {
        #expect(try ConfigurationFile.parse("pen:\n  palm-rejection: false\n", file: "kiosk.yaml").applied(to: ServerConfiguration()).routingPolicy.rejectsPalms == false)
        #expect(try ConfigurationFile.parse("trace: false\n", file: "kiosk.yaml").applied(to: ServerConfiguration()).routingPolicy.rejectsPalms == true)
    }

    /// The command line's --no-pointer-emulation wins over the file's setting, and without it
    /// the file's setting stands.
    @Test func commandLineOptionsWinOverTheFile() throws {
        let path = TestFiles.write("touch:\n  pointer-emulation: false\n")
        #expect(try ServerOptions.parse(["--config", path]).configuration().routingPolicy.emulatesPointerForTouch == false)
        #expect(try ServerOptions.parse(["--config", path, "--pointer-emulation"]).configuration().routingPolicy.emulatesPointerForTouch == true)
        #expect(try ServerOptions.parse([]).configuration().routingPolicy.emulatesPointerForTouch == true)
    }
}

enum TestFiles {
    static func write(_ text: String) -> String {
        let path = NSTemporaryDirectory() + "tactile-config-\(UUID().uuidString.prefix(8)).yaml"
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }
}
