/// What one send has learnt so far, for its metrics: the request as last sent, the attempts, the
/// last response, and the timings.
package struct SendContext: Sendable {
    /// When the send began; read only for someone who reads the send's whole duration (the
    /// metrics hook, an integration, the logging), since every reading of the clock costs.
    let start: SendMoment?
    /// Whether anyone reads the send's metrics when it ends (the metrics hook, an integration, the
    /// logging): timings nobody else can see, such as the decoding's, are measured only then.
    var isReported: Bool { start != nil }
    /// The request as last sent (or, before the first attempt, as built).
    package var request: NetworkRequest
    package var attempts = 0
    /// Who asked for each retry so far.
    var retriedBy: [RetryRequester] = []
    var response: NetworkResponse?
    var timings = NetworkTimings()
    /// The send's own cancellation, which `cancelAll` sets; `nil` until the send is registered.
    package var cancellation: SendCancellation?
    /// Which send this is, noted on each attempt's request for the log entries and integrations;
    /// `nil` when there are none, so a send without them pays nothing for it.
    let identity: SendAttempt?
    /// The integrations following this send (see `SendObserver`); usually none.
    var observations: [any SendObservation] = []
    /// How a send that streams its body or reports progress reads it; `nil` for an ordinary send,
    /// whose transport gathers the body.
    var bodyReading: BodyReading?
    /// The actions the send took as it started, which its first attempt runs; `nil` once taken.
    var stagesOfFirstAttempt: ActionStages?

    /// When the last attempt's transport ended, while no action has run since: the typed send's
    /// decoding then starts from this reading instead of taking another.
    var transportEnd: SendMoment?
    /// The multipart body the send encoded, which its retries send again; its temporary file, if
    /// any, goes with the context when the send ends.
    var encodedMultipart: EncodedMultipartBody?
    /// The body of a streamed send, still arriving when the send returns its head: the send is
    /// reported when it ends (see `StageRunner.reportingMetrics`).
    var streamedBody: BodyRelay?
    /// How many bytes of the streamed body arrived, once it has ended.
    var streamedByteCount: Int64?
    /// Whether an attempt went out with cookies the network's cookie store added (see
    /// ``NetworkResponse/sentStoredCookies``): kept here, since a completed action may replace the
    /// response that said so.
    var sentStoredCookies = false

    /// Has the send reported when `response`'s body ends, when it is handed over still arriving,
    /// rather than at its head: for a network whose stubs stream, as the real one's transport does.
    package mutating func reportsAtBodyEnd(of response: NetworkResponse) {
        if let body = response.unreadBody { streamedBody = body.relay }
    }

    /// Whether the sending task or the send itself was cancelled.
    var isCancelled: Bool {
        Task.isCancelled || cancellation?.isCancelled == true
    }

    /// A context for a send of `request`; `timesWholeSend` when someone reads its total duration.
    init(request: NetworkRequest, identifiesAttempts: Bool = false, timesWholeSend: Bool = false) {
        let start = identifiesAttempts || timesWholeSend ? SendClock.now : nil
        self.start = start
        self.request = request
        if identifiesAttempts, let start {
            let identity = SendAttempt.nextSend(startingAt: start)
            self.request.customProperties[SendAttempt.self] = identity
            self.identity = identity
        } else {
            self.identity = nil
        }
    }

    /// Counts the attempt and tells the began actions once `request` is on the wire; returns the
    /// moment the transport began, which a transport reads its timing from. `queueStart` is `nil`
    /// when the send did not wait for a slot.
    package mutating func begin(
        _ request: NetworkRequest,
        stages: ActionStages,
        queuedSince queueStart: SendMoment?
    ) -> SendMoment {
        let now = SendClock.now
        timings.queueWait = queueStart.map { now - $0 } ?? .zero
        attempts += 1
        // Nothing runs between the two readings when nobody is told: the clock is read once.
        guard !stages.began.isEmpty || !observations.isEmpty else { return now }
        for action in stages.began {
            action.requestBegan(request)
        }
        for observation in observations {
            observation.attemptOnWire(request)
        }
        return SendClock.now
    }

    /// `form` encoded: the encoding an earlier attempt made, when it encoded the same form, or a
    /// new one, which replaces it (and so removes its file first).
    // On the caller's executor: `transmit` calls it on its `inout` context, which it changes in
    // place, without an executor switch.
    nonisolated(nonsending) mutating func encodedMultipart(
        _ form: MultipartFormData
    ) async throws -> EncodedMultipartBody {
        if let encoded = encodedMultipart, encoded.form.encodesLike(form) { return encoded }
        encodedMultipart = nil
        let encoded = try await EncodedMultipartBody.encode(form)
        encodedMultipart = encoded
        return encoded
    }

    /// The time since `instant`.
    func elapsed(since instant: SendMoment) -> Duration {
        SendClock.now - instant
    }

    /// Notes that the transport, begun at `transportStart`, has ended.
    mutating func endTransport(startedAt transportStart: SendMoment) {
        let now = SendClock.now
        timings.transport = now - transportStart
        transportEnd = now
    }

    /// Notes how long decoding took, from `decodingStart` or, when no action ran since the
    /// transport ended, from that reading: then only the status check ran in between; only when
    /// the send ``isReported``, since only its metrics show the decoding's time. Throws
    /// ``NetworkError/cancelled`` when the sending task was cancelled by then.
    mutating func endDecoding(startedAt decodingStart: SendMoment?) throws(NetworkError) {
        if isReported, let start = decodingStart ?? transportEnd.take() {
            timings.decoding = SendClock.now - start
        }
        // Cancelled while its answer was decoded: the caller asked for cancellation, and gets it.
        // The task alone: the send is no longer registered, so `cancelAll` can no longer reach it,
        // and reading its own mark here cost a task allocation per send (callgrind, 10 → 11).
        if Task.isCancelled { throw NetworkError.cancelled }
    }

    /// The metrics of the send as it ended.
    func metrics(error: (any Error)?) -> RequestMetrics {
        var timings = timings
        timings.total = start.map(elapsed(since:)) ?? .zero
        return RequestMetrics(
            request: request,
            statusCode: response?.statusCode,
            attempts: attempts,
            retriedBy: retriedBy,
            timings: timings,
            error: error,
            responseBodyByteCount: streamedByteCount ?? response.map { Int64($0.body.count) }
        )
    }
}
