/// The sends in progress: for cancelling them in bulk and for observing how many there are.
///
/// Each send runs in a child task of its caller, and that child is what ``cancel(requestType:)``
/// cancels: cancellation is permanent, so cancelling the caller's own task would also fail whatever
/// it did next (another send, a sleep, a server handler's database call). The caller's cancellation
/// still reaches the child, as in any task group.
final class ActiveSendRegistry: @unchecked Sendable {
    // Safe because the mutable state is only touched inside `state.withLock`. `UnsafeCurrentTask`
    // is not Sendable, but only its `cancel()` is called from other threads, which `Task` allows
    // too; and a child cannot return (ending its task) while a canceller holds its handle, because
    // it then waits in `finish` until the canceller is done (see `Send.cancellers`).
    private struct Send {
        let requestType: ObjectIdentifier?
        let task: UnsafeCurrentTask
        /// How many `cancel` calls are cancelling this task right now, outside the lock.
        var cancellers = 0
        /// The send's own task, when it ended while cancellers still held its handle.
        var finishWaiter: UnsafeContinuation<Void, Never>?
    }

    private struct State {
        var sends: [UInt64: Send] = [:]
        var observers: [UInt64: AsyncStream<Int>.Continuation] = [:]
        var nextIdentifier: UInt64 = 0

        mutating func makeIdentifier() -> UInt64 {
            nextIdentifier += 1
            return nextIdentifier
        }

        /// Removes a send unless a canceller holds its task's handle; `true` when it is gone.
        mutating func removeUnlessHeld(_ identifier: UInt64) -> Bool {
            guard let send = sends[identifier] else { return true }
            guard send.cancellers == 0 else { return false }
            sends.removeValue(forKey: identifier)
            publish()
            return true
        }

        /// Tells every observer the current count; called with the lock held so updates stay in order.
        func publish() {
            guard !observers.isEmpty else { return }
            for observer in observers.values { observer.yield(sends.count) }
        }
    }

    private let state = LockedState(State())

    /// Runs `body` as a registered send of `requestType`, in a child task that ``cancel(requestType:)``
    /// can cancel without cancelling the calling task.
    ///
    /// `body` starts on the caller's thread, without a hop, where the toolchain and platform offer
    /// immediate child tasks (Swift 6.2, macOS 26 and its siblings, Linux).
    func track<Value: Sendable>(
        _ requestType: ObjectIdentifier?,
        _ body: @escaping @Sendable () async -> Value
    ) async -> Value {
        await withTaskGroup(of: Value.self) { group in
            let child: @Sendable () async -> Value = { [self] in
                let identifier = register(requestType)
                let value = await body()
                if let identifier { await finish(identifier) }
                return value
            }
            #if compiler(>=6.2)
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    group.addImmediateTask(operation: child)
                } else {
                    group.addTask(operation: child)
                }
            #else
                group.addTask(operation: child)
            #endif
            // The group has exactly one child, which always returns a value.
            guard let value = await group.next() else { preconditionFailure("a send's child task returned nothing") }
            return value
        }
    }

    /// Cancels every send, or only those of one request type, and none of their callers.
    ///
    /// The sends' cancellation handlers run after the lock is released, so a handler may use the
    /// network (read its activity, start another send, cancel again) without deadlocking.
    func cancel(requestType: ObjectIdentifier? = nil) {
        let targets = state.withLock { state -> [(UInt64, UnsafeCurrentTask)] in
            let targets = state.sends.compactMap { identifier, send in
                requestType == nil || send.requestType == requestType ? (identifier, send.task) : nil
            }
            for (identifier, _) in targets { state.sends[identifier]?.cancellers += 1 }
            return targets
        }
        for (_, task) in targets { task.cancel() }
        guard !targets.isEmpty else { return }
        let released = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
            var released: [UnsafeContinuation<Void, Never>] = []
            for (identifier, _) in targets {
                state.sends[identifier]?.cancellers -= 1
                guard let waiter = state.sends[identifier]?.finishWaiter, state.removeUnlessHeld(identifier)
                else { continue }
                released.append(waiter)
            }
            return released
        }
        for waiter in released { waiter.resume() }
    }

    /// The number of sends in progress.
    var count: Int { state.withLock { $0.sends.count } }

    /// A stream of the number of sends in progress: the current number first, then each change.
    func updates() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(64))
        let identifier = state.withLock { state in
            let identifier = state.makeIdentifier()
            state.observers[identifier] = continuation
            continuation.yield(state.sends.count)
            return identifier
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: identifier) }
        }
        return stream
    }

    /// Registers the current task (the send's child task); `nil` outside a task, which cannot happen
    /// in `track` but costs nothing to allow.
    private func register(_ requestType: ObjectIdentifier?) -> UInt64? {
        withUnsafeCurrentTask { task in
            guard let task else { return nil }
            return state.withLock { state in
                let identifier = state.makeIdentifier()
                state.sends[identifier] = Send(requestType: requestType, task: task)
                state.publish()
                return identifier
            }
        }
    }

    /// Removes a send; when a canceller still holds its task's handle, waits until it is done, so
    /// the task outlives every `cancel()` call made on it.
    private func finish(_ identifier: UInt64) async {
        if state.withLock({ $0.removeUnlessHeld(identifier) }) { return }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let removed = state.withLock { state in
                if state.removeUnlessHeld(identifier) { return true }
                state.sends[identifier]?.finishWaiter = continuation
                return false
            }
            if removed { continuation.resume() }
        }
    }
}
