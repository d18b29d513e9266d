import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Any ``Session`` (a `URLSession`, `MockSession`, a session of your own) as an ``HTTPTransport``:
/// it sends the request as a `URLRequest` and returns the buffered body as a one-chunk stream.
///
/// The session applies its own rules before the library sees a response: a `URLSession` follows
/// redirects itself, with its own limit and without removing credentials, so the network pairs
/// this transport with ``RedirectFollower/disabled``.
///
/// As a ``GatheringTransport`` it hands the session's completion straight to the call, with the
/// body held to the request's size limit, since a plain `URLSession` has no limit of its own.
///
/// A class, not a struct: its one reference fits inside an `any HTTPTransport`, where the struct,
/// holding an existential itself, did not, so every copy of the network's transport allocated.
final class SessionTransport: GatheringTransport {
    let session: any Session

    init(session: any Session) {
        self.session = session
    }

    private typealias Handoff = OneShotHandoff<
        UnsafeContinuation<TransportResponse, any Error>, Result<TransportResponse, any Error>, (any SessionTask)?
    >

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let urlRequest = try await URLRequest.sending(request)
        // One lock holds the wait and the task, so the session's answer, a second answer from a
        // faulty session, and cancellation can race without resuming the caller twice.
        let handoff = LockedState(Handoff(resources: nil))
        let limit = request.maximumResponseSize
        let upload = UploadReport(request, urlRequest: urlRequest)
        return try await withTaskCancellationHandler {
            // Unchecked: the handoff resumes the continuation once, under its lock; the checked
            // kind would cost an allocation per request.
            try await withUnsafeThrowingContinuation { continuation in
                if let early = handoff.withLock({ $0.wait(continuation) }) {
                    continuation.resume(with: early)
                    return
                }
                let task = session.dataTask(for: urlRequest) { data, response, error in
                    let outcome = Self.outcome(data, response, error, limit: limit)
                    if case .success = outcome { upload?.report() }
                    Self.finish(handoff, with: outcome)
                }
                // Cancelled meanwhile: the task must never run.
                guard handoff.withLock({ $0.updateResources { $0 = task } }) else {
                    task.cancel()
                    return
                }
                task.resume()
            }
        } onCancel: {
            Self.finish(handoff, with: .failure(NetworkError.cancelled))
        }
    }

    /// Ends the wait with `outcome` unless it already ended; a failure also cancels the task.
    private static func finish(_ handoff: LockedState<Handoff>, with outcome: Result<TransportResponse, any Error>) {
        guard let ending = handoff.withLock({ $0.finish(outcome) }) else { return }
        if case .failure = outcome { ending.resources?.cancel() }
        ending.waiter?.resume(with: outcome)
    }

    func gatheringTask(for request: TransportRequest, reportingTo call: TransportCall) -> (any SessionTask)? {
        URLRequest.gatheringTask(for: request, reportingTo: call) { urlRequest in
            guard let upload = UploadReport(request, urlRequest: urlRequest) else {
                // The call is all this completion captures (named, not `Self`, which would capture
                // the dynamic type too), so the call itself is its context: no allocation.
                return session.dataTask(for: urlRequest) { data, response, error in
                    SessionTransport.report(data, response, error, to: call, upload: nil)
                }
            }
            return session.dataTask(for: urlRequest) { data, response, error in
                SessionTransport.report(data, response, error, to: call, upload: upload)
            }
        }
    }

    /// Tells `call` what a session's completion means, handing it the response and body as they
    /// came rather than in a `Result`.
    private static func report(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, to call: TransportCall, upload: UploadReport?
    ) {
        switch completion(data, response, error, limit: call.maximumResponseSize) {
        case .success(let (response, body)):
            upload?.report()
            call.gathered(response, body: body)
        case .failure(let error): call.gatheringFailed(error)
        }
    }

    /// The one upload progress report a request with a body gets over a session: a ``Session``
    /// says nothing of the bytes it sends, so the whole body is reported sent when its answer
    /// comes, before the answer is handed on.
    private struct UploadReport: Sendable {
        let handler: TransferProgressHandler
        let length: Int64

        /// The report for `request`, sent as `urlRequest`; `nil` without a handler, a body, or a
        /// length that the request or the session's request knows.
        init?(_ request: borrowing TransportRequest, urlRequest: URLRequest) {
            guard let handler = request.uploadProgress, let body = request.body,
                let length = body.length ?? urlRequest.httpBody?.count
            else { return nil }
            self.handler = handler
            self.length = Int64(length)
        }

        func report() {
            handler(TransferProgress(direction: .upload, completedByteCount: length, expectedByteCount: length))
        }
    }

    /// What a session's completion means: the response with its body as one chunk, or the error.
    ///
    /// A session that completes with a response, bytes and an error at once (a URLSession never
    /// does; a test double replaying a body that broke off does) means a body that broke after
    /// those bytes: a streamed send reads them, then the error.
    private static func outcome(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, limit: Int?
    ) -> Result<TransportResponse, any Error> {
        if let error, let response = response as? HTTPURLResponse, let data, !data.isEmpty {
            if let limit, data.count > limit { return .failure(NetworkError.responseTooLarge(limit: limit)) }
            let error = NetworkError.normalize(error)
            // Read once, like any stream over a connection: the bytes, then the error.
            let body = ByteStream(makeIterator: {
                var pending: [Result<Data, any Error>] = [.success(data), .failure(error)]
                return ByteStream.AsyncIterator { pending.isEmpty ? nil : try pending.removeFirst().get() }
            })
            return .success(TransportResponse(response, body: body))
        }
        return completion(data, response, error, limit: limit).map { TransportResponse($0, body: ByteStream($1)) }
    }

    /// The response and its body a session completed with, or the error. A body over `limit`
    /// fails, for a session that does not hold bodies to a limit itself.
    private static func completion(
        _ data: Data?, _ response: URLResponse?, _ error: (any Error)?, limit: Int?
    ) -> Result<(HTTPURLResponse, Data), any Error> {
        if let error {
            return .failure(NetworkError.normalize(error))
        }
        guard let response = response as? HTTPURLResponse else {
            return .failure(NetworkError.invalidResponse)
        }
        // The session ended the body where a malformed length's digits said: not the whole body.
        guard !response.hasMalformedContentLength else {
            return .failure(NetworkError.transport(URLError(.badServerResponse)))
        }
        let body = data ?? Data()
        if let limit, body.count > limit {
            return .failure(NetworkError.responseTooLarge(limit: limit))
        }
        return .success((response, body))
    }
}
