/// A task that cannot be sent (a request that cannot be built, a transport already invalidated):
/// resuming it reports its error to its call, as a task that failed at once would.
struct FailedSessionTask: SessionTask {
    let error: any Error
    let call: TransportCall

    init(error: any Error, reportingTo call: TransportCall) {
        self.error = error
        self.call = call
    }

    func resume() {
        call.gathered(.failure(error))
    }

    /// Nothing to stop: a task that never started has nothing in flight.
    func cancel() {}
}
