import Foundation

/// The sends in progress: for cancelling them in bulk and for observing how many there are.
///
/// A send registers its own task while it runs. `UnsafeCurrentTask` is used rather than wrapping
/// every send in a new `Task`, which would cost an allocation and two thread hops per request.
final class ActiveSendRegistry: @unchecked Sendable {
    // Safe because every stored property is only touched while `lock` is held, and a send removes
    // its task, under the lock, before it returns: `cancel()` (also called under the lock) can
    // therefore only reach a task that is still running, which is what `UnsafeCurrentTask` requires.
    private let lock = NSLock()
    private var sends: [UInt64: (requestType: ObjectIdentifier?, task: UnsafeCurrentTask)] = [:]
    private var observers: [UInt64: AsyncStream<Int>.Continuation] = [:]
    private var nextIdentifier: UInt64 = 0

    /// Runs `body` as a registered send of `requestType`.
    func track<Value>(
        _ requestType: ObjectIdentifier?,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let identifier = withUnsafeCurrentTask { task in
            lock.withLock { () -> UInt64? in
                guard let task else { return nil }
                nextIdentifier += 1
                sends[nextIdentifier] = (requestType, task)
                publish()
                return nextIdentifier
            }
        }
        defer {
            if let identifier {
                lock.withLock {
                    sends.removeValue(forKey: identifier)
                    publish()
                }
            }
        }
        return try await body()
    }

    /// Cancels every send, or only those of one request type.
    func cancel(requestType: ObjectIdentifier? = nil) {
        lock.withLock {
            for send in sends.values where requestType == nil || send.requestType == requestType {
                send.task.cancel()
            }
        }
    }

    /// The number of sends in progress.
    var count: Int { lock.withLock { sends.count } }

    /// A stream of the number of sends in progress: the current number first, then each change.
    func updates() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(64))
        let identifier = lock.withLock {
            nextIdentifier += 1
            observers[nextIdentifier] = continuation
            continuation.yield(sends.count)
            return nextIdentifier
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.observers.removeValue(forKey: identifier) }
        }
        return stream
    }

    /// Tells every observer the current count; called with the lock held so updates stay in order.
    private func publish() {
        guard !observers.isEmpty else { return }
        for observer in observers.values { observer.yield(sends.count) }
    }
}
