import Foundation

/// Something that sends requests through an ordered chain of actions: ``URLSessionNetwork`` in an
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
    func startSend<Value: Sendable>(
        on queue: DispatchQueue?,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> any Cancellable {
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
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
