import Foundation

/// A value shared between a test's thread and a server's, behind a pthread mutex (NSLock).
/// Not Synchronization's Mutex: on Linux that locks with futex system calls, which
/// ThreadSanitizer does not see, so the TSan step reported races on the values it guarded.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
