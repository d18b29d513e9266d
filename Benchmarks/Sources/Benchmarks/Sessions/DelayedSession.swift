import ECNetworking
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Session`` for the scale scenarios: each task answers after a short delay on a background
/// queue (so sends pile up behind the concurrency limit), except tasks for ``blockingPath``, which
/// only end when cancelled. It counts the tasks on the wire (resumed, not yet answered), which is
/// the figure `maximumConcurrentRequests` must bound.
final class DelayedSession: Session {
    /// The path whose tasks never answer until cancelled: the request that holds the only slot.
    static let blockingPath = "block"

    private struct Counts {
        var inFlight = 0
        var maximumInFlight = 0
        var started = 0
    }

    private let delay: DispatchTimeInterval
    private let response: HTTPURLResponse
    private let body: Data
    private let counts = Mutex(Counts())

    /// Creates a session answering `body` after `delay`.
    init(url: URL, body: Data, delay: DispatchTimeInterval) {
        self.delay = delay
        self.body = body
        self.response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
    }

    /// The most tasks that were on the wire at once.
    var maximumInFlight: Int { counts.withLock { $0.maximumInFlight } }
    /// The tasks on the wire now.
    var inFlight: Int { counts.withLock { $0.inFlight } }
    /// How many tasks were resumed in all.
    var started: Int { counts.withLock { $0.started } }

    /// A task answering after the delay, or only when cancelled if it is for ``blockingPath``.
    func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        let blocks = request.url?.lastPathComponent == Self.blockingPath
        return DelayedTask(session: self, blocks: blocks, completion: completion)
    }

    fileprivate func taskStarted() {
        counts.withLock { counts in
            counts.inFlight += 1
            counts.started += 1
            counts.maximumInFlight = max(counts.maximumInFlight, counts.inFlight)
        }
    }

    fileprivate func taskEnded() {
        counts.withLock { $0.inFlight -= 1 }
    }

    fileprivate func answer(_ task: DelayedTask) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [response, body] in
            task.finish(body, response, nil)
        }
    }
}

/// A task of a ``DelayedSession``; it answers (or reports cancellation) exactly once.
private final class DelayedTask: SessionTask {
    private struct State {
        var completion: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?
        var resumed = false
    }

    private let session: DelayedSession
    private let blocks: Bool
    private let state: Mutex<State>

    init(
        session: DelayedSession,
        blocks: Bool,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.session = session
        self.blocks = blocks
        self.state = Mutex(State(completion: completion))
    }

    /// Puts the task on the wire and schedules its answer (unless it blocks).
    func resume() {
        // Counted under the task's lock, so a cancellation racing with `resume()` either sees the
        // task on the wire or finds it never started, and the count cannot go below zero.
        let live = state.withLock { state in
            guard state.completion != nil else { return false }
            state.resumed = true
            session.taskStarted()
            return true
        }
        if live && !blocks { session.answer(self) }
    }

    /// Ends the task with `URLError(.cancelled)`, as `URLSession` does.
    func cancel() {
        finish(nil, nil, URLError(.cancelled))
    }

    /// Calls the completion unless it was called already; the task leaves the wire first, so the
    /// count never includes a task whose send has already been told.
    func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let ended = state.withLock { state in
            defer { state.completion = nil }
            return state.completion.map { ($0, state.resumed) }
        }
        guard let (completion, resumed) = ended else { return }
        if resumed { session.taskEnded() }
        completion(data, response, error)
    }
}
