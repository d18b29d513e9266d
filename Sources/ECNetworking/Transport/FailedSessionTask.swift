/// A task that cannot be sent (a request that cannot be built, a transport already invalidated):
/// resuming it reports its error, as a task that failed at once would.
struct FailedSessionTask<Value: Sendable>: SessionTask {
    let error: any Error
    let completion: @Sendable (Result<Value, any Error>) -> Void

    func resume() {
        completion(.failure(error))
    }

    /// Nothing to stop: a task that never started has nothing in flight.
    func cancel() {}
}
