#if !canImport(Darwin)
    import Synchronization
#endif

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
/// A send started while another is in progress in the same task, or in a task that inherited its
/// task-local values (a login an action awaits, or starts in `Task {}`), is cancelled with it. A
/// completion-handler send is not (see `Network.startSend`): nothing awaits it but its caller's
/// handler, and a login queue shares it among every send that waits.
package final class SendCancellation: Sendable {
    // A class with its lock inside (see `InlineLockedState`): one allocation per send, as the
    // struct around a `LockedState` was, with the lock's state in the same object.

    /// The send the current task is running, if any.
    @TaskLocal package static var current: SendCancellation?

    fileprivate typealias Handler = @Sendable () -> Void

    private struct State {
        var isCancelled = false
        var nextIdentifier: UInt64 = 0
        // A send waits in one place at a time, so one handler is the rule; the dictionary, which
        // allocates, is for the rare second one (a nested send's link beside an action's deadline).
        var handler: (identifier: UInt64, run: Handler)?
        var moreHandlers: [UInt64: Handler] = [:]
    }

    // One lock, and handlers run after it is released: `isCancelled` is read inside other types'
    // locks (the queue's, a refresh's) that those types' handlers take, so running handlers under
    // this lock could deadlock. A handler may therefore run just after the wait that added it
    // ended; each one here only ends a wait keyed by its own identifier or ends an object that has
    // already ended, so running late does nothing, and the send was cancelled in any case.
    private let state = InlineLockedState(State())

    #if !canImport(Darwin)
        // `State.isCancelled`, for the reads that need nothing else: a send reads it at every
        // attempt and after every action it runs. Set under the lock, just after the state's, so it
        // never says cancelled before the state does. On Apple platforms, where `Atomic` needs
        // macOS 15 and iOS 18, the lock is read instead.
        private let cancelledFlag = Atomic<Bool>(false)
    #endif

    /// Creates a send that is not cancelled.
    package init() {}

    /// Whether the send was cancelled.
    package var isCancelled: Bool {
        #if !canImport(Darwin)
            cancelledFlag.load(ordering: .acquiring)
        #else
            state.withLock { $0.isCancelled }
        #endif
    }

    /// Marks the send cancelled and runs its handlers, once; later calls do nothing.
    func cancel() {
        markCancelled().run()
    }

    /// The handlers a cancellation takes out of a send, to run after the lock.
    struct PendingHandlers {
        fileprivate let handler: Handler?
        fileprivate let moreHandlers: [UInt64: Handler]

        /// Runs them.
        func run() {
            handler?()
            for handler in moreHandlers.values { handler() }
        }
    }

    /// Marks the send cancelled, once, and returns its handlers without running them: bulk
    /// cancellation marks every send before it runs any handler, so that a handler that frees
    /// something (a slot in the queue) cannot let another send it is cancelling go ahead first.
    func markCancelled() -> PendingHandlers {
        // Taken out as they are, without collecting them into an array: bulk cancellation of
        // thousands of queued sends should not allocate per send.
        state.withLock { state -> PendingHandlers in
            guard !state.isCancelled else { return PendingHandlers(handler: nil, moreHandlers: [:]) }
            state.isCancelled = true
            #if !canImport(Darwin)
                cancelledFlag.store(true, ordering: .releasing)
            #endif
            defer {
                state.handler = nil
                state.moreHandlers = [:]
            }
            return PendingHandlers(handler: state.handler?.run, moreHandlers: state.moreHandlers)
        }
    }

    /// Adds `handler`, to run when the send is cancelled; `nil`, without adding it, when the send
    /// is already cancelled.
    func addHandler(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.nextIdentifier += 1
            if state.handler == nil {
                state.handler = (state.nextIdentifier, handler)
            } else {
                state.moreHandlers[state.nextIdentifier] = handler
            }
            return state.nextIdentifier
        }
    }

    /// Removes a handler, unless cancellation already took it to run.
    func removeHandler(_ identifier: UInt64?) {
        guard let identifier else { return }
        state.withLock { state in
            if state.handler?.identifier == identifier {
                state.handler = nil
            } else if !state.moreHandlers.isEmpty {
                state.moreHandlers.removeValue(forKey: identifier)
            }
        }
    }

    /// Runs `body` as the current task's send, cancelled with the send it is nested in, if any.
    // Inlined into `track`, which every send runs (no async frame of its own), and run on the
    // caller's executor, so the non-`Sendable` `body` is called without an executor switch.
    @inline(__always) nonisolated(nonsending) func run<Value>(
        _ body: nonisolated(nonsending) () async throws -> Value
    ) async rethrows -> Value {
        let parent = Self.current
        let link = parent?.addHandler { [self] in cancel() }
        defer { parent?.removeHandler(link) }
        if parent?.isCancelled == true { cancel() }
        return try await Self.$current.withValue(self, operation: body)
    }
}

extension SendCancellation {
    /// Whether the calling task, or the send it is running, is cancelled.
    package static var isCancelled: Bool {
        Task.isCancelled || current?.isCancelled == true
    }

    /// Throws ``NetworkError/cancelled`` when the calling task or its send is cancelled: checked
    /// after a wait the library cannot interrupt (a store's read, a joined call's end).
    package static func checkCancellation() throws {
        if isCancelled { throw NetworkError.cancelled }
    }

    /// Runs `operation`, calling `onCancel` when the calling task or its send is cancelled, as
    /// `withTaskCancellationHandler` does for the task: at once when the send is already cancelled.
    /// `onCancel` must be safe to call late, just after `operation` ended. `operation` must check
    /// ``isCancelled`` once it has registered what `onCancel` undoes, to notice a cancellation that
    /// came while it did so.
    // Inlined into every wait it wraps (the wire's on every attempt): one async frame fewer each
    // time; `isolation` keeps `operation` on the caller's executor.
    @inline(__always) package static func withCancellationHandler<Value>(
        operation: () async throws -> Value,
        onCancel: @escaping @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Value {
        try await withCancellationHandler(of: current, operation: operation, onCancel: onCancel, isolation: isolation)
    }

    /// ``withCancellationHandler(operation:onCancel:isolation:)`` for a caller that holds its send's
    /// cancellation already, `send` (which must be ``current``, or `nil` when there is none): the
    /// wire's wait on every attempt, where looking the task-local value up again cost a walk of
    /// the task's local values and a copy of the reference.
    @inline(__always) package static func withCancellationHandler<Value>(
        of send: SendCancellation?,
        operation: () async throws -> Value,
        onCancel: @escaping @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Value {
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
