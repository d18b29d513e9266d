/// One send's own cancellation, apart from the task that made the send: what `cancelAll` sets.
///
/// Cancelling a task is permanent, so cancelling the caller's task would also fail whatever it did
/// next; running every send in a child task that could be cancelled instead costs a task per send.
/// So bulk cancellation marks the send, and every place where the library waits during a send (the
/// queue, the wire, a retry's back-off, a token refresh, a joined identical request, an action run
/// under ``NetworkConfiguration/actionTimeout``) observes the mark as well as the task's own
/// cancellation, through ``withCancellationHandler(operation:onCancel:isolation:)`` and
/// ``isCancelled``. Code the library does not own (an action without a time limit) is not
/// interrupted: the send ends as cancelled once it returns.
///
/// A send started while another is in progress in the same task (a login sent by an action) is
/// cancelled with it.
package final class SendCancellation: Sendable {
    /// The send the current task is running, if any.
    @TaskLocal package static var current: SendCancellation?

    private struct Handlers {
        var entries: [UInt64: @Sendable () -> Void] = [:]
        var nextIdentifier: UInt64 = 0
        /// Set once the handlers ran; nothing may be added after.
        var isClosed = false
    }

    // Two locks, because `isCancelled` is read inside other types' locks (the queue's, a refresh's)
    // whose cancellation handlers run under `handlers`' lock: the flag's lock is never held while
    // anything else is taken, so no order of the two can deadlock.
    private let flag = LockedState(false)
    // Handlers run with this lock held, so that one never runs after `removeHandler` returned, as
    // with a task's cancellation handlers; only the thread that set the flag ever runs them.
    private let handlers = LockedState(Handlers())

    /// Whether the send was cancelled.
    package var isCancelled: Bool { flag.withLock { $0 } }

    /// Marks the send cancelled and runs its handlers, once; later calls do nothing.
    func cancel() {
        let wasCancelled = flag.withLock { isCancelled in
            defer { isCancelled = true }
            return isCancelled
        }
        guard !wasCancelled else { return }
        handlers.withLock { handlers in
            handlers.isClosed = true
            for handler in handlers.entries.values { handler() }
            handlers.entries = [:]
        }
    }

    /// Adds `handler`, to run when the send is cancelled; `nil`, without adding it, when the send
    /// is already cancelled (the flag is set before the handlers run, so the caller's own check of
    /// ``isCancelled`` after this call sees it).
    func addHandler(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        handlers.withLock { handlers in
            guard !handlers.isClosed else { return nil }
            handlers.nextIdentifier += 1
            handlers.entries[handlers.nextIdentifier] = handler
            return handlers.nextIdentifier
        }
    }

    /// Removes a handler; once this returns it does not run.
    func removeHandler(_ identifier: UInt64?) {
        guard let identifier else { return }
        handlers.withLock { _ = $0.entries.removeValue(forKey: identifier) }
    }

    /// Runs `body` as the current task's send, cancelled with the send it is nested in, if any.
    func run<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async rethrows -> Value {
        let parent = Self.current
        let link = parent?.addHandler { [self] in cancel() }
        defer { parent?.removeHandler(link) }
        if parent?.isCancelled == true { cancel() }
        return try await Self.$current.withValue(self, operation: body, isolation: isolation)
    }
}

extension SendCancellation {
    /// Whether the calling task, or the send it is running, is cancelled.
    package static var isCancelled: Bool {
        Task.isCancelled || current?.isCancelled == true
    }

    /// Runs `operation`, calling `onCancel` when the calling task or its send is cancelled, as
    /// `withTaskCancellationHandler` does for the task: at once when the send is already cancelled,
    /// and never after this returns. `operation` must check ``isCancelled`` once it has registered
    /// what `onCancel` undoes, to notice a cancellation that came while it did so.
    package static func withCancellationHandler<Value>(
        operation: () async throws -> Value,
        onCancel: @escaping @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Value {
        let send = current
        let registration = send?.addHandler(onCancel)
        defer { send?.removeHandler(registration) }
        if send != nil && registration == nil { onCancel() }
        return try await withTaskCancellationHandler(operation: operation, onCancel: onCancel, isolation: isolation)
    }

    /// Sleeps for `duration`; throws `CancellationError` at once when the calling task or its send
    /// is cancelled.
    package static func sleep(for duration: Duration) async throws {
        guard current != nil else { return try await Task.sleep(for: duration) }
        let sleeper = Task { try await Task.sleep(for: duration) }
        try await withCancellationHandler {
            if isCancelled { sleeper.cancel() }
            try await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
    }
}
