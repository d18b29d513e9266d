/// How long each stage of a send took, measured with a monotonic clock around the stage.
///
/// `URLSessionTaskMetrics` never arrive on Linux, so the library measures for itself; these figures
/// mean the same on every platform. The phases cover the last attempt; ``total`` covers the whole
/// send, retries included.
public struct NetworkTimings: Sendable, Hashable {
    /// Time spent in the will-begin actions.
    public var willBegin: Duration
    /// Time spent waiting for a slot under ``NetworkConfiguration/maximumConcurrentRequests``.
    public var queueWait: Duration
    /// Time from handing the request to the session until the whole body had arrived.
    public var transport: Duration
    /// Time spent turning the body into the typed response; zero for raw sends. Without response
    /// actions it counts from the end of the transport, so it includes the status check too,
    /// which saves a reading of the clock; with them it counts from the end of the last one.
    public var decoding: Duration
    /// Time from the start of the send until its end, in the metrics the send ends with
    /// (``RequestMetrics/timings``); zero in a response's own timings, taken before the send ends.
    public var total: Duration

    /// Creates timings; every phase defaults to zero.
    public init(
        willBegin: Duration = .zero,
        queueWait: Duration = .zero,
        transport: Duration = .zero,
        decoding: Duration = .zero,
        total: Duration = .zero
    ) {
        self.willBegin = willBegin
        self.queueWait = queueWait
        self.transport = transport
        self.decoding = decoding
        self.total = total
    }
}
