import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``SessionTask`` a ``URLSessionTransport`` hands out: a data task whose completion is owned
/// by the transport's delegate.
struct TransportTask: SessionTask {
    let task: URLSessionDataTask
    let delegate: TransportDelegate

    /// Starts the data task, unless it was cancelled first: a task that already ended must not
    /// reach the network.
    func resume() {
        guard delegate.isActive(task.taskIdentifier) else { return }
        task.resume()
    }

    /// Ends the task with `URLError(.cancelled)` at once, then cancels the data task.
    ///
    /// The completion does not wait for the session's own cancellation callback, which may come
    /// late or, for a task never resumed, not at all; that callback then finds the task ended and
    /// is ignored. The entry is removed before the data task is cancelled, which the delegate's
    /// redirect handling relies on.
    func cancel() {
        guard delegate.end(task.taskIdentifier, with: URLError(.cancelled)) else { return }
        task.cancel()
    }
}
