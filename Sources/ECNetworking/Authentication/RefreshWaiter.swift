/// Lets one request wait for the shared refresh without tying the refresh to that request.
///
/// Awaiting the refresh task's value directly would ignore the waiter's cancellation until the
/// refresh finished; this ends the wait at once instead, while the refresh goes on for everyone else.
enum RefreshWaiter {
    /// The value of `task`, or `CancellationError` as soon as the calling task is cancelled.
    static func value<Value: Sendable>(of task: Task<Value, any Error>) async throws -> Value {
        let slot = ResultSlot<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                slot.install(continuation)
                Task { slot.fill(with: await task.result) }
            }
        } onCancel: {
            slot.fill(with: .failure(CancellationError()))
        }
    }
}

/// Whichever comes first of the refresh's result and the waiter's cancellation resumes the
/// continuation, exactly once. Either may arrive before the continuation is installed (a task
/// cancelled before it waits runs its cancellation handler first), so a result is kept until then.
private final class ResultSlot<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var result: Result<Value, any Error>?
        var isResumed = false
    }

    private let state = LockedState(State())

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = state.withLock { state in
            guard let result = state.result else {
                state.continuation = continuation
                return nil
            }
            state.isResumed = true
            return result
        }
        if let early { continuation.resume(with: early) }
    }

    func fill(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard !state.isResumed, state.result == nil else { return nil }
            guard let continuation = state.continuation else {
                state.result = result
                return nil
            }
            state.isResumed = true
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}
