import ECNetworking

/// The ``ECNetworking/Cancellable`` of a completion-handler send of a ``FakeNetwork``; cancelling
/// the task makes the send end with ``ECNetworking/NetworkError/cancelled``.
struct FakeSendCancellable: Cancellable {
    let task: Task<Void, Never>

    func cancel() {
        task.cancel()
    }
}
