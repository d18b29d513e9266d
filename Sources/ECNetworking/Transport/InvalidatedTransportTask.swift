import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The task a ``URLSessionTransport`` hands out after ``URLSessionTransport/invalidate()``: it
/// fails without touching the session, because creating a task in an invalidated `URLSession`
/// stops the process on Linux.
final class InvalidatedTransportTask: SessionTask {
    private let completion: LockedState<(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?>

    init(completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.completion = LockedState(completion)
    }

    /// Fails with ``NetworkError/invalidated``: nothing can go on the wire, and a retry would fail
    /// the same way.
    func resume() {
        finish(with: NetworkError.invalidated)
    }

    /// Fails with `URLError(.cancelled)`, like any other cancelled task.
    func cancel() {
        finish(with: URLError(.cancelled))
    }

    private func finish(with error: any Error) {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        completion?(nil, nil, error)
    }
}
