import Foundation

extension Network {
    /// Sends a request and returns its typed response, reporting the transfer to `progress`.
    public func send<R: Request>(_ request: R, progress: TransferProgressHandler) async throws -> R.Response {
        try await send(request, priority: .normal, progress: progress)
    }

    /// Sends a request, reporting the transfer to `progress`, and calls `completion` exactly once
    /// with the typed response or the error (on ``completionQueue`` when set).
    @discardableResult
    public func send<R: Request>(
        _ request: R,
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler,
        completion: @escaping @Sendable (Result<R.Response, any Error>) -> Void
    ) -> any Cancellable {
        startSend(on: completionQueue, completion: completion) {
            try await self.send(request, priority: priority, progress: progress)
        }
    }

    /// Sends a request and returns once its head has arrived, with the body still streaming.
    public func stream<R: Request>(_ request: R) async throws -> ResponseStream {
        try await stream(request, priority: .normal, progress: nil)
    }

    /// Sends a raw request and returns once its head has arrived, with the body still streaming.
    public func stream(_ request: NetworkRequest) async throws -> ResponseStream {
        try await stream(request, priority: .normal, progress: nil)
    }

    /// A network without transfer progress of its own sends as usual and reports no progress:
    /// a typed send does not hand its body back to count. `progress` is finished when the send
    /// ends.
    public func send<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler
    ) async throws -> R.Response {
        defer { progress.finish() }
        return try await send(request, priority: priority)
    }

    /// A network without streaming of its own sends as usual and streams the whole body it got
    /// (or, from a test double, the body it hands over still to come).
    public func stream<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        // A download's resumption, read once and cleared for whatever the send's actions send.
        let resumption = BodyReading.download?.resumption
        return try await streamingWhole(progress: progress) {
            try await send(WholeResponseRequest(base: request, resumption: resumption), priority: priority)
        }
    }

    /// A network without streaming of its own sends as usual and streams the whole body it got.
    public func stream(
        _ request: NetworkRequest, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        var request = request
        BodyReading.download?.resumption?.apply(to: &request)
        let resumed = request
        return try await streamingWhole(progress: progress) { try await send(resumed, priority: priority) }
    }

    /// Runs `send` outside the download that may have called the stream (so the sends its actions
    /// make are not read as that download's), and streams the response it got; `progress` is
    /// finished if the send fails, and when the body ends otherwise.
    private func streamingWhole(
        progress: TransferProgressHandler?, _ send: () async throws -> NetworkResponse
    ) async throws -> ResponseStream {
        let response: NetworkResponse
        do {
            response = try await BodyReading.$download.withValue(nil, operation: send)
        } catch {
            progress?.finish()
            throw error
        }
        return ResponseStream(sentWhole: response, progress: progress)
    }
}

extension ResponseStream {
    /// The stream of a response a ``Network`` without streaming of its own got: its whole body,
    /// reported to `progress` at once; or the body a test double handed over still to come,
    /// reported as it arrives. `progress` is finished when the body ends.
    fileprivate init(sentWhole response: NetworkResponse, progress: TransferProgressHandler?) {
        guard let body = response.unreadBody else {
            progress?.reportWholeDownload(of: response)
            progress?.finish()
            self.init(completeResponse: response)
            return
        }
        var head = response
        head.unreadBody = nil
        body.relay.configure(
            idleTimeout: nil,
            progress: progress.map { DownloadProgressCounter(handler: $0, headers: head.headers) },
            onEnd: { _ in progress?.finish() })
        self.init(response: head, body: body)
    }
}

extension TransferProgressHandler {
    /// Reports `response`'s body as downloaded whole, for a send that got it in one piece.
    package func reportWholeDownload(of response: NetworkResponse) {
        let count = Int64(response.body.count)
        self(TransferProgress(direction: .download, completedByteCount: count, expectedByteCount: count))
    }
}

/// `base`, answered with the validated response itself instead of its decoded value: how a
/// ``Network`` that only sends typed requests streams one.
struct WholeResponseRequest<Base: Request>: WrappingRequest {
    typealias Response = NetworkResponse
    let base: Base
    /// The rest of the body a resumed download asks for, if it is one.
    var resumption: DownloadResumption?

    var wrappedRequest: any Request { Self.unwrapped(base) }

    var customProperties: CustomProperties { base.customProperties }

    // The body is handed over as it is, so its type is not checked.
    var acceptableContentTypes: [String]? { nil }

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        var request = try base.buildRequest(with: baseURL)
        resumption?.apply(to: &request)
        return request
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> NetworkResponse {
        response
    }
}
