import Foundation

/// Something that sends requests through an ordered chain of actions: ``HTTPNetwork`` in an
/// app, `FakeNetwork` from `ECNetworkingTesting` in its tests.
///
/// Every send ends exactly once: with a value, a typed error, or ``NetworkError/cancelled``.
public protocol Network: AnyObject, Sendable {
    /// Adds an action. It joins every stage it conforms to, after the actions already added;
    /// safe to call while requests are running (they keep the actions they started with).
    func add(action: any Action)

    /// Sends a request and returns its typed response. Cancelling the calling task cancels the send.
    func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response

    /// Sends a raw request and returns the validated response, without decoding.
    func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse

    /// The queue the completion-handler `send` calls back on; `nil` calls back on whichever thread
    /// the send finished on.
    var completionQueue: DispatchQueue? { get }

    /// Sends a request and calls `completion` exactly once, also when cancelled (with
    /// ``NetworkError/cancelled``), on ``completionQueue`` when there is one.
    @discardableResult
    func send<R: Request>(
        _ request: R,
        priority: RequestPriority,
        completion: @escaping @Sendable (Result<R.Response, any Error>) -> Void
    ) -> any Cancellable

    /// Sends a request through a ``ResponseStore``, answering from the store when `policy`
    /// allows and storing a successful answer; see ``HTTPNetwork/send(_:storage:policy:priority:)``.
    func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response>

    /// Streams the stored answer to a request, if there is one, then the network's; see
    /// ``HTTPNetwork/storedThenFresh(_:storage:priority:)``.
    func storedThenFresh<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        priority: RequestPriority
    ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error>

    /// Sends a request and returns its typed response, reporting the upload of its body and the
    /// download of the response's to `progress` as the bytes move; see ``TransferProgressHandler``.
    /// An identical send in progress is never joined, since its bytes would not be counted.
    func send<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler
    ) async throws -> R.Response

    /// Sends a request and returns once its head has arrived and passed every action stage, with
    /// the body still streaming; see ``ResponseStream``. A stream is never joined with an identical
    /// send nor answered from storage, and its body is bounded by
    /// ``NetworkConfiguration/streamIdleTimeout`` rather than the total timeout.
    func stream<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream

    /// Sends a raw request and returns once its head has arrived and passed every action stage,
    /// with the body still streaming; see ``ResponseStream``.
    func stream(
        _ request: NetworkRequest, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream

    /// The stored answer to `request`, decoded, with its age; `nil` when the store has none that
    /// may answer it. Makes no network call, and finds the entry a storage send would: the same
    /// key, the same ``StoragePartition`` (an answer never crosses identities) and `Vary` rules.
    func storedValue<R: StorableRequest>(for request: R, in storage: any ResponseStore) async throws
        -> StoredValue<R.Response>?

    /// Cancels every send in progress; each ends with ``NetworkError/cancelled``. The tasks that
    /// made them are not cancelled and carry on.
    func cancelAll()

    /// Cancels every send in progress of one request type, and none of their callers. An `async`
    /// send that an action of such a send awaits is cancelled with it; a completion-handler send
    /// the action starts (a login shared with sends of other types) is not.
    func cancelAll<R: Request>(of requestType: R.Type)

    /// The number of sends in progress.
    var activeRequestCount: Int { get }

    /// The number of sends in progress, now and after every change; the stream ends when its
    /// consumer stops iterating.
    func activityUpdates() -> AsyncStream<Int>

    /// Ends the network's work for good: cancels the sends in progress and fails every later send
    /// with ``NetworkError/invalidated``.
    func invalidate()

    /// Ends the network's work for good once the sends in progress have ended; later sends fail
    /// with ``NetworkError/invalidated``. Returns when the last one ended.
    func finishSendsAndInvalidate() async
}

extension Network {
    /// No queue: completion handlers run on whichever thread the send finished on.
    public var completionQueue: DispatchQueue? { nil }

    /// Sends a request at normal priority and returns its typed response.
    public func send<R: Request>(_ request: R) async throws -> R.Response {
        try await send(request, priority: .normal)
    }

    /// Sends a raw request at normal priority and returns the validated response.
    public func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        try await send(request, priority: .normal)
    }

    /// Sends a request at normal priority and calls `completion` exactly once.
    @discardableResult
    public func send<R: Request>(
        _ request: R,
        completion: @escaping @Sendable (Result<R.Response, any Error>) -> Void
    ) -> any Cancellable {
        send(request, priority: .normal, completion: completion)
    }

    /// Sends a request through a ``ResponseStore`` at normal priority.
    public func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy
    ) async throws -> StoredValue<R.Response> {
        try await send(request, storage: storage, policy: policy, priority: .normal)
    }

    /// Streams the stored answer, then the network's, at normal priority.
    public func storedThenFresh<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore
    ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error> {
        storedThenFresh(request, storage: storage, priority: .normal)
    }

    /// Runs the async send in a task and calls `completion` exactly once when it ends.
    @discardableResult
    public func send<R: Request>(
        _ request: R,
        priority: RequestPriority,
        completion: @escaping @Sendable (Result<R.Response, any Error>) -> Void
    ) -> any Cancellable {
        startSend(on: completionQueue, completion: completion) { try await self.send(request, priority: priority) }
    }

    /// Starts `operation` in a task and delivers its one result to `completion`, on `queue` if given.
    ///
    /// The send belongs to its ``Cancellable`` alone: one started by an action of another send (a
    /// login that a hand-written queue shares among every send waiting for it) is not cancelled
    /// with that send, as an async send the action awaits is. The caller holds no task that could
    /// be waiting for it, and others may be.
    func startSend<Value: Sendable>(
        on queue: DispatchQueue?,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> any Cancellable {
        let task = Task {
            let result: Result<Value, any Error>
            do {
                // The task took the starting send's link along with the other task-local values.
                if SendCancellation.current != nil {
                    result = .success(try await SendCancellation.$current.withValue(nil, operation: operation))
                } else {
                    result = .success(try await operation())
                }
            } catch {
                result = .failure(error)
            }
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        return TaskCancellable(task: task)
    }
}
