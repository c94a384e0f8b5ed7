import ArgumentParser
import Glibc
import Responder
import TactileServer
import TactileWayland

struct StaffPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staff-pin",
        abstract: "Read a staff PIN from standard input and print the configuration's staff: lines with its salted hash.",
        discussion: """
        The PIN (4 to 12 digits) is read from the first line of standard input, never from \
        the arguments, where ps would show it: `tactile staff-pin` and type it, or pipe it \
        in. Each run draws a new salt, so the same PIN hashes differently on every kiosk. \
        Paste the lines into the configuration file; the PIN itself is kept nowhere.
        """
    )

    @Option(help: ArgumentHelp("The corner the door's long press waits in: top-left, top-right, bottom-left or bottom-right.", valueName: "corner"))
    var corner = "top-right"

    func validate() throws {
        if Corner(rawValue: corner) == nil { throw ValidationError("--corner: '\(corner)' is not top-left, top-right, bottom-left or bottom-right") }
    }

    func run() throws {
        if isatty(STDIN_FILENO) != 0 { Unbuffered.write("PIN (4 to 12 digits): ", to: STDERR_FILENO) }
        guard let line = readLine(strippingNewline: true) else { throw ValidationError("no PIN on standard input") }
        let pin = line.trimmingSpaces
        guard StaffPin.isPIN(pin) else { throw ValidationError("a PIN is 4 to 12 digits, nothing else") }
        guard let hash = StaffPin.hash(pin) else { throw ValidationError("libcrypt could not hash the PIN") }
        print("staff:\n  pin: '\(hash)'\n  corner: \(corner)\n  taps: 5\n  opens: exit")
    }
}
