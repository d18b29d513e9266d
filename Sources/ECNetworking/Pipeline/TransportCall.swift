import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt on the wire: a session task bridged to `async`, ending exactly once with the
/// response, a transport error, a timeout, or cancellation, whichever comes first.
///
/// Cancellation and the deadline resume the caller at once rather than waiting for the session to
/// report back, and cancel the session task so the connection is dropped.
final class TransportCall: Sendable {
    private struct State {
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        var result: Result<(Data, URLResponse), any Error>?
        var task: (any SessionTask)?
        var deadline: DispatchWorkItem?
    }

    private let state = LockedState(State())

    /// Sends `request` through `session`.
    static func send(_ request: URLRequest, through session: any Session, timeout: Duration?) async throws -> (
        Data, URLResponse
    ) {
        let call = TransportCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(request, session: session, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            call.finish(.failure(NetworkError.cancelled))
        }
    }

    private func start(
        _ request: URLRequest,
        session: any Session,
        timeout: Duration?,
        continuation: CheckedContinuation<(Data, URLResponse), any Error>
    ) {
        let earlyResult: Result<(Data, URLResponse), any Error>? = state.withLock { state in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let earlyResult {
            continuation.resume(with: earlyResult)
            return
        }
        if Task.isCancelled {
            finish(.failure(NetworkError.cancelled))
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
        var deadline: DispatchWorkItem?
        if let timeout {
            deadline = DispatchWorkItem { self.finish(.failure(NetworkError.timedOut(after: timeout))) }
        }
        let started = state.withLock { state in
            guard state.result == nil else { return false }
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

    /// Ends the call with `result` unless it already ended; a failure also cancels the session task.
    func finish(_ result: Result<(Data, URLResponse), any Error>) {
        let (continuation, task, deadline) = state.withLock { state in
            guard state.result == nil else {
                return (
                    CheckedContinuation<(Data, URLResponse), any Error>?.none, (any SessionTask)?.none,
                    DispatchWorkItem?.none
                )
            }
            state.result = result
            defer {
                state.continuation = nil
                state.task = nil
                state.deadline = nil
            }
            return (state.continuation, state.task, state.deadline)
        }
        deadline?.cancel()
        if case .failure = result { task?.cancel() }
        continuation?.resume(with: result)
    }
}
