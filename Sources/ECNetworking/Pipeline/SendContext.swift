/// What one send has learnt so far, for its metrics: the request as last sent, the attempts, the
/// last response, and the timings.
struct SendContext {
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var request: NetworkRequest
    var attempts = 0
    var response: NetworkResponse?
    var timings = NetworkTimings()
    /// The send's own cancellation, which `cancelAll` sets; `nil` until the send is registered.
    var cancellation: SendCancellation?

    /// Whether the sending task or the send itself was cancelled.
    var isCancelled: Bool {
        Task.isCancelled || cancellation?.isCancelled == true
    }

    init(request: NetworkRequest) {
        self.start = clock.now
        self.request = request
    }

    /// The time since `instant`, which the caller read from ``clock``.
    func elapsed(since instant: ContinuousClock.Instant) -> Duration {
        clock.now - instant
    }

    /// The metrics of the send as it ended.
    func metrics(error: (any Error)?) -> RequestMetrics {
        var timings = timings
        timings.total = elapsed(since: start)
        return RequestMetrics(
            request: request,
            statusCode: response?.statusCode,
            attempts: attempts,
            timings: timings,
            error: error
        )
    }
}
