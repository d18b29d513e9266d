import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The task a ``URLSessionTransport`` hands out after ``URLSessionTransport/invalidate()``: it
/// fails without touching the session, because creating a task in an invalidated `URLSession`
/// stops the process on Linux.
final class InvalidatedTransportTask: SessionTask {
    private typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    private let handoff: LockedState<OneShotHandoff<Completion, Void, Void>>

    init(completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.handoff = LockedState(OneShotHandoff(waiter: completion))
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
        handoff.withLock { $0.finish() }?.waiter?(nil, nil, error)
    }
}
