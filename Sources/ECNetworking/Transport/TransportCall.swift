import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt on the wire through an ``HTTPTransport``: it sends the request, follows redirects
/// with its ``RedirectFollower``, reads the body up to the size limit, and ends exactly once with
/// the response, an error, the deadline, or cancellation, whichever comes first.
///
/// The exchange runs in a task of its own, so that the deadline (which covers head and body) and
/// cancellation end the call at once even when a transport ignores cancellation; ending the call
/// early cancels that task, which is how the transport learns to drop the connection.
///
/// A ``Session`` passed in (``SessionTransport``) needs no such task: its task is started and
/// cancelled synchronously and answers through a completion handler, so the call drives it
/// directly, as it always has. That keeps the hop through the task scheduler, and its allocation,
/// off the path of `MockSession` and of a `URLSession` passed in.
final class TransportCall: DeadlineTarget {
    typealias Outcome = Result<NetworkResponse, any Error>

    /// What the call holds while it runs, released by whichever ending comes first.
    private struct Resources: Sendable {
        var exchange: Task<Void, Never>?
        /// The session's task, when the call drives a ``Session`` directly.
        var sessionTask: (any SessionTask)?
        var deadline: DeadlineScheduler.Token?
    }

    private let request: TransportRequest
    private let transport: any HTTPTransport
    private let redirects: RedirectFollower
    /// Whom the outcome goes to. A struct, not a bare closure: a closure stored as a generic
    /// argument is reabstracted through a thunk, which costs an allocation per call.
    private struct Waiter: Sendable {
        let receive: @Sendable (Outcome) -> Void
    }

    // The handoff lives inline in the lock's one allocation, so a call costs no more than that.
    private let state = LockedState(OneShotHandoff<Waiter, Outcome, Resources>(resources: Resources()))

    /// A call that sends `request` through `transport`, ended by `request.timeout` if it has one.
    init(_ request: TransportRequest, through transport: any HTTPTransport, redirects: RedirectFollower) {
        self.request = request
        self.transport = transport
        self.redirects = redirects
    }

    /// Sends `request` and waits; cancelling the calling task, or its send, cancels the call.
    static func send(
        _ request: TransportRequest, through transport: any HTTPTransport, redirects: RedirectFollower
    ) async throws -> NetworkResponse {
        let call = TransportCall(request, through: transport, redirects: redirects)
        return try await SendCancellation.withCancellationHandler {
            // Unchecked: `finish` hands the outcome out once, under the lock, so the continuation is
            // resumed exactly once; the checked kind would cost an allocation per request.
            try await withUnsafeThrowingContinuation { continuation in
                if SendCancellation.isCancelled {
                    continuation.resume(throwing: NetworkError.cancelled)
                    return
                }
                call.start { continuation.resume(with: $0) }
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// Starts the exchange; `completion` is called exactly once, possibly before this returns.
    func start(completion: @escaping @Sendable (Outcome) -> Void) {
        if let earlyOutcome = state.withLock({ $0.wait(Waiter(receive: completion)) }) {
            completion(earlyOutcome)
            return
        }
        if let session = transport as? SessionTransport, !redirects.policy.followsRedirects,
            !request.hasStreamedBody, let urlRequest = try? URLRequest(request, streamedBody: nil)
        {
            start(urlRequest, on: session.session)
            return
        }
        let exchange = Task {
            do {
                self.finish(.success(try await self.exchange()))
            } catch {
                self.finish(.failure(NetworkError.normalize(error)))
            }
        }
        let deadline = request.timeout.map { DeadlineScheduler.shared.schedule(after: $0, self) }
        // The call may have ended meanwhile (the exchange was quick, or the call was cancelled and
        // found nothing to cancel); then neither is wanted any more.
        let stored = state.withLock { state in
            state.updateResources { resources in
                resources.exchange = exchange
                resources.deadline = deadline
            }
        }
        if !stored {
            if let deadline { DeadlineScheduler.shared.cancel(deadline) }
            exchange.cancel()
        }
    }

    /// Starts `urlRequest` as a task of `session`, whose completion ends the call.
    private func start(_ urlRequest: URLRequest, on session: any Session) {
        let limit = request.maximumResponseSize
        let task = session.dataTask(for: urlRequest) { data, response, error in
            if let error {
                self.finish(.failure(NetworkError.normalize(error)))
            } else if let response = response as? HTTPURLResponse {
                let body = data ?? Data()
                // A session without a limit of its own (a plain URLSession) is held to the request's.
                if let limit, body.count > limit {
                    self.finish(.failure(NetworkError.responseTooLarge(limit: limit)))
                } else {
                    self.finish(.success(NetworkResponse(response, body: body)))
                }
            } else {
                self.finish(.failure(NetworkError.invalidResponse))
            }
        }
        // The call may have ended meanwhile (cancelled); then the task must never run.
        guard state.withLock({ $0.updateResources { $0.sessionTask = task } }) else {
            task.cancel()
            return
        }
        if let timeout = request.timeout {
            let token = DeadlineScheduler.shared.schedule(after: timeout, self)
            // The call may have ended meanwhile; then the deadline is no longer wanted.
            if !state.withLock({ $0.updateResources { $0.deadline = token } }) {
                DeadlineScheduler.shared.cancel(token)
            }
        }
        task.resume()
    }

    /// Ends the call with ``NetworkError/cancelled`` unless it already ended.
    func cancel() {
        finish(.failure(NetworkError.cancelled))
    }

    /// Ends the call with ``NetworkError/timedOut(after:)`` unless it already ended.
    func deadlinePassed() {
        finish(.failure(NetworkError.timedOut(after: request.timeout ?? .zero)))
    }

    /// The exchange itself: every hop of the redirect chain, then the final body.
    private func exchange() async throws -> NetworkResponse {
        var current = request
        var followed = 0
        while true {
            let response = try await transport.send(current)
            guard
                let next = try redirects.request(
                    following: response, of: current, originalURL: request.url, followed: followed)
            else {
                let body = try await response.body.collect(upTo: current.maximumResponseSize)
                return NetworkResponse(response, body: body, requestedURL: current.url)
            }
            // The 3xx body is dropped unread: a transport ends a body stream its consumer lets go.
            followed += 1
            current = next
        }
    }

    /// Ends the call with `outcome` unless it already ended; a failure also cancels the exchange.
    private func finish(_ outcome: Outcome) {
        guard let ending = state.withLock({ $0.finish(outcome) }) else { return }
        if let deadline = ending.resources.deadline { DeadlineScheduler.shared.cancel(deadline) }
        if case .failure = outcome {
            ending.resources.exchange?.cancel()
            ending.resources.sessionTask?.cancel()
        }
        ending.waiter?.receive(outcome)
    }
}
