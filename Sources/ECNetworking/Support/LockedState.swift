import Foundation

/// A value guarded by a lock, so that several threads can read and change it safely.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 and iOS 18; this package supports
/// older systems, so it keeps its own small lock around `NSLock`. Shared with the test doubles of
/// `ECNetworkingTesting` through `package` access; it is not part of the public API.
package final class LockedState<State>: @unchecked Sendable {
    // Safe because `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
