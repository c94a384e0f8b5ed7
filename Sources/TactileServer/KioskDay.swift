import Logging
import TactileWayland

/// What a kiosk's day asks of the host (`session`, `staff`): the session starting over
/// (the app started again, or `session.reset-run`), and what the staff door opens (Tactile
/// stopping, the session starting over, or a command beside the app). The server decides
/// when; starting processes and stopping are the host's.
public final class KioskDay {
    private let server: WaylandServer
    private let session: SessionCommand?
    private let resetRun: String?
    private let start: ([String], String) -> Void
    private let logger: Logger

    /// `start` runs a command beside the app, connected to the server (`Assembly.startHelper`).
    public init(server: WaylandServer, session: SessionCommand?, resetRun: String?, logger: Logger,
                start: @escaping (_ arguments: [String], _ what: String) -> Void) {
        self.server = server
        self.session = session
        self.resetRun = resetRun
        self.start = start
        self.logger = logger
        server.port.onSessionReset = { [unowned self] in startOver("session") }
        server.port.onStaffDoorOpened = { [unowned self] opens in
            switch opens {
            case .exit:
                logger.notice("staff door: stopping Tactile")
                self.server.handle.terminate()
            case .restart: startOver("staff door")
            case .run(let command): start(["/bin/sh", "-c", command], "staff door")
            }
        }
    }

    private func startOver(_ what: String) {
        if let resetRun { return start(["/bin/sh", "-c", resetRun], "\(what): session.reset-run") }
        guard let session else {
            return logger.warning("\(what): nothing to start over: Tactile was started without an app (tactile serve -- COMMAND)")
        }
        logger.info("\(what): starting \(session.arguments.joined(separator: " ")) over")
        session.startOver()
    }
}
