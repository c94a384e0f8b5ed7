import Glibc
import TactileBackends
import TactileServer

extension DeviceEntry {
    /// Writes each entry into the file, each checked by reading the file back (`takes`:
    /// do the device's entries, in order, give it the setting?), or nothing when one cannot be.
    static func write(_ entries: [(DeviceEntry, takes: ([DeviceSettings]) -> Bool)], to path: String) throws {
        var text: String
        switch TextFile.read(path) {
        case .success(let old): text = old
        case .failure(let failure) where errno == ENOENT: _ = failure; text = ""
        case .failure(let failure): throw CalibrateClient.Failure(description: "cannot read \(path): \(failure)")
        }
        for (entry, takes) in entries {
            text = try entry.written(into: text) { candidate in
                try takes(ConfigurationFile.parse(candidate, file: path).devices.filter { $0.match == entry.device })
            }
        }
        try TextFile.replace(path, with: text)
        Unbuffered.write("written to \(path)\n", to: STDOUT_FILENO)
    }
}
