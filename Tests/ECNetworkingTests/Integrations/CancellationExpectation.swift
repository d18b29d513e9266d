import ECNetworking
import Testing

/// Waits for `task` and records an issue unless it ended with ``NetworkError/cancelled``.
func expectCancellation<Value>(
    of task: Task<Value, any Error>,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    do {
        _ = try await task.value
        Issue.record("expected cancellation, got a value", sourceLocation: sourceLocation)
    } catch {
        #expect((error as? NetworkError)?.isCancellation == true, "got \(error)", sourceLocation: sourceLocation)
    }
}
