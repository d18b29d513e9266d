import Foundation
import Testing

/// A condition a test waited for did not come true in time.
public struct ConditionTimedOut: Error {}

/// Polls `condition` every millisecond until it holds, so tests wait for a state instead of
/// guessing how long it takes to reach it. Past `timeout` it records an issue and throws
/// ``ConditionTimedOut``, so the test stops there. The default is generous on purpose: a state
/// that does come is reached as soon as it comes, and a ThreadSanitizer run starved on two cores
/// has stalled tests for over ten seconds.
public func waitUntil(
    timeout: Duration = promptBound,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
            throw ConditionTimedOut()
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// How long a send may take to end "at once" after a cancellation or a deadline: far below
/// ``longDelay``, which such tests stub so that waiting it out fails them, and far above the
/// several seconds that a ThreadSanitizer run starved on two cores can stall any test.
public let promptBound: Duration = .seconds(30)

/// A delay that a test must never wait out; see ``promptBound``.
public let longDelay: Duration = .seconds(120)

/// Runs `body` on a thread of its own and returns what it returns: for CPU work of a second or
/// more, which on the concurrency runtime's threads (two on a two-core machine) would hold up every
/// other test of the process until it ends.
public func onThreadOfItsOwn<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
