import Testing

/// A condition a test waited for did not come true in time.
public struct ConditionTimedOut: Error {}

/// Polls `condition` every millisecond until it holds, so tests wait for a state instead of
/// guessing how long it takes to reach it. Past `timeout` it records an issue and throws
/// ``ConditionTimedOut``, so the test stops there.
public func waitUntil(
    timeout: Duration = .seconds(10),
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
