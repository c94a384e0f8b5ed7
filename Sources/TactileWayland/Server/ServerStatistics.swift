import Glibc
import Responder

/// What a fleet's monitoring reads of a running server (`tactile serve`'s metrics): counts
/// kept as things happen, and the state as it is when asked. A value, taken on the loop's
/// thread, so whoever formats it needs no lock.
public struct ServerStatistics: Sendable, Equatable {
    public struct Output: Sendable, Equatable {
        public var name: String
        public var framesPresented: Int
        /// When its last frame was shown, in seconds since the Unix epoch; nil before the first.
        public var lastPresented: Double?
        /// Its panel sleeps (idle blanking, DPMS, an output manager turned it off).
        public var asleep: Bool
    }

    public var outputs: [Output] = []
    /// Fingers put on the glass, whoever got them (an app, a gesture, a grab, nobody).
    public var touchDowns = 0
    /// wl_touch.cancel sent: a client's touches taken from it by a gesture that won, or ended
    /// with a stuck contact (`stuck-after`).
    public var touchesCancelled = 0
    /// Touches a touchscreen's filter acted on (a bounce joined, a ghost dropped...), by
    /// device and filter.
    public var touchesFiltered: [FilteredTouches: Int] = [:]
    /// Stuck contacts ended, by touchscreen.
    public var touchesStuck: [String: Int] = [:]
    /// Touches a touch accommodation acted on (held until it counted, dropped as a repeat,
    /// made a tap...), by accommodation (`hold-duration`, `ignore-repeat`, `tap-assistance`).
    public var touchesAccommodated: [String: Int] = [:]
    /// Configured gestures recognized, by name.
    public var gesturesRecognized: [String: Int] = [:]
    public var clients = 0
    /// Clients that answered no xdg_wm_base.ping for `ShellPings.limit` (once pinging started).
    public var unresponsiveClients = 0
    /// The input devices the backend has now (none for the headless and nested backends).
    public var inputDevices: [InputDeviceSummary] = []
    /// Sessions started over for idleness (`session.reset-after`).
    public var sessionResets = 0
    /// Cleaning screens started.
    public var cleanings = 0
    /// Staff PINs tried, by result: right, wrong, locked (tried while locked out).
    public var staffPinAttempts: [String: Int] = [:]
}

/// An input device as a fleet counts it: its name and what it mainly is.
public struct InputDeviceSummary: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case touchscreen, tablet, pad, touchpad, pointer, keyboard, other
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// The touches `ServerStatistics` counts, as the server routes them.
struct TouchCounts {
    var downs = 0
    var cancelled = 0
}

extension WaylandServer {
    /// The statistics now. Frame times are the monotonic clock's; they are given as Unix
    /// time by the distance of each from now on both clocks.
    public var statistics: ServerStatistics {
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let now = Double(realtime.tv_sec) + Double(realtime.tv_nsec) / 1e9
        let monotonic = currentTime
        let outputs = parts.outputs
        return ServerStatistics(
            outputs: (outputs.live + outputs.disabled).map { output in
                ServerStatistics.Output(
                    name: output.placed.description.name, framesPresented: output.framesPresented,
                    lastPresented: output.lastPresented.map { now - Double(monotonic.microseconds &- min($0.microseconds, monotonic.microseconds)) / 1e6 },
                    asleep: !output.poweredOn || outputs.disabled.contains { $0 === output })
            },
            touchDowns: touchCounts.downs, touchesCancelled: touchCounts.cancelled,
            touchesFiltered: parts.touchFiltering.counts, touchesStuck: parts.touchFiltering.stuck,
            touchesAccommodated: Dictionary(uniqueKeysWithValues: parts.touchAccommodating.counts.map { ($0.key.rawValue, $0.value) }),
            gesturesRecognized: parts.gestures.recognized, clients: clients.byID.count,
            unresponsiveClients: parts.xdgShell.pings.unresponsive(now: monotonic).count, inputDevices: inputDevices,
            sessionResets: parts.sessionReset.resets, cleanings: parts.cleaning.started, staffPinAttempts: parts.staffDoor.attempts)
    }

    /// Told each touch-to-present time the server measures (`TouchShown`), on the loop, as
    /// the frame that ends it is presented.
    public var onTouchShown: ((TouchShown, Duration) -> Void)? {
        get { parts.composition.touchShown }
        set { parts.composition.touchShown = newValue }
    }

    /// Starts pinging every client's shell, for `statistics` and `healthProblems` to tell a
    /// hung app. Only a kiosk that is watched pays for the wake-ups.
    public func startPinging() {
        parts.xdgShell.startPinging { [unowned self] in currentTime }
    }

    /// Why the kiosk is not healthy, a line each; none when it is: an awake output whose
    /// frame was not shown within `frameLimit` (a display that stopped completing flips), a
    /// configured touchscreen that is not present, a touchscreen that had a stuck contact in
    /// the last minute, a client that answers no ping (with `startPinging`).
    public var healthProblems: [HealthProblem] {
        let now = currentTime
        var problems: [HealthProblem] = []
        for output in parts.outputs.live where output.poweredOn && output.framePending {
            guard let composed = output.composedAt, now > composed, now - composed > Self.frameLimit else { continue }
            let subject = "output \(output.placed.description.name)"
            problems.append(HealthProblem(subject: subject, description: "\(subject): a frame composed \(Self.seconds(now - composed)) s ago is not shown yet"))
        }
        let touchscreens = inputDevices.filter { $0.kind == .touchscreen || $0.kind == .tablet }
        for expected in configuration.expectedTouchscreens where !touchscreens.contains(where: { $0.name.contains(expected.nameContains) }) {
            let subject = "device \(expected.label)"
            problems.append(HealthProblem(subject: subject, description: "\(subject): no touchscreen matching '\(expected.nameContains)' is present"))
        }
        for device in parts.touchFiltering.devicesWithStuckContacts(now: now) {
            let subject = "touchscreen '\(device)'"
            problems.append(HealthProblem(subject: subject, description: "\(subject): a stuck contact was ended in the last minute (its panel may need a reset)"))
        }
        let naming = self.naming
        for (client, waited) in parts.xdgShell.pings.unresponsive(now: now) {
            let subject = "client " + (ClientState.of(client).map { naming.name($0.id) } ?? "gone")
            problems.append(HealthProblem(subject: subject, description: "\(subject): no answer to xdg_wm_base.ping for \(Self.seconds(waited)) s"))
        }
        return problems
    }

    /// How long a frame may take to be shown before the output counts as stalled.
    static let frameLimit = Duration.seconds(3)

    private static func seconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds)
    }
}

/// One reason a kiosk is not healthy: what it is about (an output, a client), and the line
/// that says what is wrong now.
public struct HealthProblem: Sendable, Equatable {
    public var subject: String
    public var description: String

    public init(subject: String, description: String) {
        self.subject = subject
        self.description = description
    }
}

/// A device the configuration expects (`ServerConfiguration.expectedTouchscreens`): the
/// setting it comes from, and the part of a device's name that matches it.
public struct ExpectedInputDevice: Sendable, Equatable {
    public var label: String
    public var nameContains: String

    public init(label: String, nameContains: String) {
        self.label = label
        self.nameContains = nameContains
    }
}
