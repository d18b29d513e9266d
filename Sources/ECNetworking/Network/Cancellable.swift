/// A send that can be cancelled; the completion-handler `send` returns one.
///
/// Cancelling ends the send with ``NetworkError/cancelled``, wherever it is: queued, in an action,
/// or on the wire. Cancelling a send that already ended does nothing.
public protocol Cancellable: Sendable {
    /// Cancels the send.
    func cancel()
}

/// The ``Cancellable`` of a send that runs in a task.
struct TaskCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() {
        task.cancel()
    }
}
