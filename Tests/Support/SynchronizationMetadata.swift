import Synchronization
import TactileBackends
import TactileWayland

/// The metadata of the generic types the tests and the server share state through (Locked,
/// ServerJobs, Atomic), made once, on one thread, before the first test server starts.
///
/// Swift's runtime makes a generic type's metadata the first time it is asked for (for
/// Synchronization's types always at run time: it is a resilient module), and at the start
/// of a test run every suite's server and thread start at once. Under ThreadSanitizer those
/// first requests, made together, crashed inside the runtime's metadata cache
/// (`ConcurrentReadableHashMap::Snapshot::find`, a read at 0x18) in 3 of 14 local runs of
/// the TSan step, on this round's code and the code before it alike; made here first, in none of 32.
/// Uninstrumented runs never showed it.
enum SynchronizationMetadata {
    static let made: Void = {
        let types: [Any.Type] = [
            Locked<Result<(ServerHandle, String?), Error>?>.self, Locked<Result<ServerHandle, Error>?>.self, Locked<WaylandBackend.End?>.self,
            Locked<[String]>.self, Locked<(start: UInt64?, end: UInt64?)>.self,
            Locked<[ServerJobs<HeadlessBackend>.Job]>.self, Locked<[ServerJobs<WaylandBackend>.Job]>.self,
            ServerJobs<HeadlessBackend>.self, ServerJobs<WaylandBackend>.self,
        ]
        // Each metatype's identity is its metadata's address: asking for it makes the metadata.
        _ = Set(types.map(ObjectIdentifier.init))
        _ = Atomic<Bool>(false)
        _ = Atomic<Int>(0)
    }()
}
