import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt on the wire: a session task that ends exactly once with the response, a transport
/// error, a timeout, or cancellation, whichever comes first.
///
/// Cancellation and the deadline end the call at once rather than waiting for the session to
/// report back, and cancel the session task so the connection is dropped.
final class TransportCall: Sendable {
    typealias Outcome = Result<(Data, URLResponse), any Error>

    private struct State {
        var completion: (@Sendable (Outcome) -> Void)?
        var outcome: Outcome?
        var task: (any SessionTask)?
        var deadline: DispatchWorkItem?
    }

    private let request: URLRequest
    private let session: any Session
    private let timeout: Duration?
    private let state = LockedState(State())

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
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
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
        let earlyOutcome: Outcome? = state.withLock { state in
            if state.outcome == nil { state.completion = completion }
            return state.outcome
        }
        if let earlyOutcome {
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
        let deadline = timeout.map { timeout in
            DispatchWorkItem { self.finish(.failure(NetworkError.timedOut(after: timeout))) }
        }
        let started = state.withLock { state in
            guard state.outcome == nil else { return false }
            state.task = task
            state.deadline = deadline
            return true
        }
        guard started else {
            task.cancel()
            return
        }
        if let deadline, let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds, execute: deadline)
        }
        task.resume()
    }

    /// Ends the call with ``NetworkError/cancelled`` unless it already ended.
    func cancel() {
        finish(.failure(NetworkError.cancelled))
    }

    /// Ends the call with `outcome` unless it already ended; a failure also cancels the session task.
    private func finish(_ outcome: Outcome) {
        let ended = state.withLock {
            state -> (
                completion: (@Sendable (Outcome) -> Void)?, task: (any SessionTask)?, deadline: DispatchWorkItem?
            )? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer {
                state.completion = nil
                state.task = nil
                state.deadline = nil
            }
            return (state.completion, state.task, state.deadline)
        }
        guard let ended else { return }
        ended.deadline?.cancel()
        if case .failure = outcome { ended.task?.cancel() }
        ended.completion?(outcome)
    }
}
