import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``SessionTask`` a ``URLSessionTransport`` hands out from its ``Session`` side: a
/// ``TransportCall`` over the transport, with the transport's own redirect policy, reported
/// through a completion handler.
final class TransportSessionTask: SessionTask {
    typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    /// `nil` for a request without a URL, which fails when started.
    private let call: TransportCall?
    private let completion: Completion
    /// Whether the call has been given its completion; only the first of `resume` and `cancel`
    /// does it.
    private let started = LockedState(false)

    init(_ request: URLRequest, transport: URLSessionTransport, completion: @escaping Completion) {
        self.completion = completion
        guard let url = request.url else {
            self.call = nil
            return
        }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let transportRequest = TransportRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            url: url,
            headers: headers,
            body: request.httpBody.map(TransportRequestBody.bytes),
            cachePolicy: request.cachePolicy)
        self.call = TransportCall(
            transportRequest,
            on: TransportRoute(transport, redirects: transport.redirects, cookies: CookieJar()))
    }

    /// Starts the call, unless it was cancelled first: a task that already ended must not reach
    /// the network.
    func resume() {
        startOnce()
    }

    /// Ends the task with `URLError(.cancelled)` at once, and drops its transfer.
    func cancel() {
        call?.cancel()
        startOnce()
    }

    private func startOnce() {
        let isFirst = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard isFirst else { return }
        let completion = completion
        guard let call else {
            completion(nil, nil, URLError(.badURL))
            return
        }
        call.start { outcome in
            switch outcome {
            case .success(let response):
                completion(response.body, response.httpURLResponse, nil)
            case .failure(let error):
                // A session reports what `URLSession` would: its own `URLError`, unwrapped.
                let reported: any Error =
                    switch error as? NetworkError {
                    case .cancelled?: URLError(.cancelled)
                    case .transport(let urlError)?: urlError
                    default: error
                    }
                completion(nil, nil, reported)
            }
        }
    }
}
