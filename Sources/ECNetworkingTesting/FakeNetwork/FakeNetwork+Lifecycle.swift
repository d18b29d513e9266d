import ECNetworking
import Foundation

extension FakeNetwork {
    /// Cancels every send in progress, stubbed or passed on; each ends with
    /// `NetworkError.cancelled`. As with `HTTPNetwork`, only
    /// the sends are cancelled, not the tasks that made them, which carry on.
    public func cancelAll() {
        activeSends.cancel()
    }

    /// Cancels every send in progress of one request type, and none of their callers; a
    /// subscription to Server-Sent Events made with a request of that type ends with
    /// `NetworkError.cancelled`.
    public func cancelAll<R: Request>(of requestType: R.Type) {
        activeSends.cancel(requestType: ObjectIdentifier(requestType))
    }

    /// The number of sends in progress: started and not yet ended, those in a stub's delay included.
    public var activeRequestCount: Int {
        activeSends.count
    }

    /// The number of sends in progress, now and after every change, to test an activity indicator.
    /// The stream ends when its consumer stops iterating.
    public func activityUpdates() -> AsyncStream<Int> {
        activeSends.updates()
    }

    /// Cancels the sends in progress and fails every later send at once with
    /// `NetworkError.invalidated`, recording nothing; the metrics hook hears of each such send,
    /// as on `HTTPNetwork`. The actions stop running, as the real network drops them, but stay in
    /// ``addedActions`` for a test to inspect; a network the fake passes requests to is left alone.
    public func invalidate() {
        activeSends.close()
        cancelAll()
        runner.actions.removeAll()
    }

    /// Fails every later send with `NetworkError.invalidated` and returns once the
    /// sends in progress have ended, then stops running the actions (they stay in
    /// ``addedActions``); a subscription to Server-Sent Events, which has no end to run to, ends
    /// with `NetworkError.invalidated`.
    public func finishSendsAndInvalidate() async {
        await activeSends.finishSends()
        runner.actions.removeAll()
    }

    /// Runs `body`, which hands a send to another network, as a send of `requestType` of this
    /// fake's too, so that ``cancelAll()`` and invalidation reach it without cancelling the caller:
    /// the other network's send runs inside it and is cancelled with it, as a send started during
    /// another is. One that returns after the mark still ends as cancelled, as a send whose action
    /// returns late does.
    func passingOn<Value>(
        _ requestType: Any.Type?,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        try await activeSends.track(requestType.map(ObjectIdentifier.init)) { cancellation in
            let value = try await body()
            if cancellation.isCancelled { throw NetworkError.cancelled }
            return value
        }
    }
}
