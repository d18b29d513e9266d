import Foundation

/// A value guarded by a lock, for the test doubles' shared state.
final class LockedValue<Value>: @unchecked Sendable {
    // Safe because `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
