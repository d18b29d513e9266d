import Foundation
import Testing

/// Polls `condition` until it holds, recording an issue after 5 seconds; for state that another
/// task changes.
func waitUntil(
    _ condition: @Sendable () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 5 seconds", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// A thread-safe list, for what actions and completion handlers saw from other threads.
final class Log<Element: Sendable>: @unchecked Sendable {
    // Safe because `elements` is only touched while `lock` is held.
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }

    var all: [Element] {
        lock.withLock { elements }
    }
}
