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

    /// Runs `body` as a send of `requestType` that ``cancelAll()`` can cancel without cancelling
    /// the caller.
    ///
    /// Bulk cancellation marks the send, as in `HTTPNetwork`: a stub's delay
    /// observes the mark, a send passed to another network is linked to it, and a stub or action
    /// that returns after it still ends the send as cancelled. The registry refuses a send once
    /// the fake is invalidated, as the real network's does.
    func tracking<Value>(
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
