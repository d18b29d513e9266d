import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt on the wire: a session task that ends exactly once with the response, a transport
/// error, a timeout, or cancellation, whichever comes first.
///
/// Cancellation and the deadline end the call at once rather than waiting for the session to
/// report back, and cancel the session task so the connection is dropped.
final class TransportCall: DeadlineTarget {
    typealias Outcome = Result<(Data, URLResponse), any Error>

    /// What the call holds while it runs, released by whichever ending comes first.
    private struct Resources: Sendable {
        var task: (any SessionTask)?
        var deadline: DeadlineScheduler.Token?
    }

    private let request: URLRequest
    private let session: any Session
    private let timeout: Duration?
    /// Whom the outcome goes to. A struct, not a bare closure: a closure stored as a generic
    /// argument is reabstracted through a thunk, which costs an allocation per call.
    private struct Waiter: Sendable {
        let receive: @Sendable (Outcome) -> Void
    }

    // The handoff lives inline in the lock's one allocation, so a call costs no more than that.
    private let state = LockedState(OneShotHandoff<Waiter, Outcome, Resources>(resources: Resources()))

    init(_ request: URLRequest, session: any Session, timeout: Duration?) {
        self.request = request
        self.session = session
        self.timeout = timeout
    }

    /// Sends `request` through `session` and waits; cancelling the calling task cancels the call.
    static func send(_ request: URLRequest, through session: any Session, timeout: Duration?) async throws -> (
        Data, URLResponse
    ) {
        let call = TransportCall(request, session: session, timeout: timeout)
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

    /// Starts the session task; `completion` is called exactly once, possibly before this returns.
    func start(completion: @escaping @Sendable (Outcome) -> Void) {
        if let earlyOutcome = state.withLock({ $0.wait(Waiter(receive: completion)) }) {
            completion(earlyOutcome)
            return
        }
        let task = session.dataTask(for: request) { data, response, error in
            if let error {
                self.finish(.failure(NetworkError.normalize(error)))
            } else if let response {
                self.finish(.success((data ?? Data(), response)))
            } else {
                self.finish(.failure(NetworkError.invalidResponse))
            }
        }
        // The call may have ended meanwhile (cancelled); then the task must never run.
        guard state.withLock({ $0.updateResources { $0.task = task } }) else {
            task.cancel()
            return
        }
        if let timeout {
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
        finish(.failure(NetworkError.timedOut(after: timeout ?? .zero)))
    }

    /// Ends the call with `outcome` unless it already ended; a failure also cancels the session task.
    private func finish(_ outcome: Outcome) {
        guard let ending = state.withLock({ $0.finish(outcome) }) else { return }
        if let deadline = ending.resources.deadline { DeadlineScheduler.shared.cancel(deadline) }
        if case .failure = outcome { ending.resources.task?.cancel() }
        ending.waiter?.receive(outcome)
    }
}
