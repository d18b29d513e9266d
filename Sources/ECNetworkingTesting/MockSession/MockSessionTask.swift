import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A task of ``MockSession``: answers once, from its stub, unless cancelled first.
final class MockSessionTask: SessionTask {
    typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    private struct State: Sendable {
        /// Hands the completion to whichever ends the task first: its answer or its cancellation.
        var handoff: OneShotHandoff<Completion, Void, Void>
        var started = false
    }

    private let request: URLRequest
    private let session: MockSession
    /// Both fields under one lock, and the session's counters updated under it too, so that a
    /// `resume` racing a `cancel` sees one consistent state: the task either starts (and is later
    /// finished, answered or cancelled) or is cancelled before it starts, never half of each.
    private let state: LockedState<State>

    init(request: URLRequest, session: MockSession, completion: @escaping Completion) {
        self.request = request
        self.session = session
        self.state = LockedState(State(handoff: OneShotHandoff(waiter: completion)))
    }

    func resume() {
        // A cancelled task has given its completion away already; like URLSession, it stays dead.
        let response = state.withLock { state -> MockResponse? in
            guard !state.started, !state.handoff.isFinished else { return nil }
            state.started = true
            return session.start(request)
        }
        guard let response else { return }
        if response.delay > .zero {
            DispatchQueue.global().asyncAfter(deadline: .now() + response.delay.seconds) {
                self.answer(with: response)
            }
        } else {
            answer(with: response)
        }
    }

    func cancel() {
        let completion = state.withLock { state -> Completion? in
            guard let completion = state.handoff.finish()?.waiter else { return nil }
            if state.started {
                session.finish(cancelled: true)
            } else {
                session.countCancellationBeforeStart()
            }
            return completion
        }
        completion?(nil, nil, URLError(.cancelled))
    }

    private func answer(with response: MockResponse) {
        let completion = state.withLock { state -> Completion? in
            guard let completion = state.handoff.finish()?.waiter else { return nil }
            session.finish(cancelled: false)
            return completion
        }
        guard let completion else { return }
        switch response.outcome {
        case .failure(let error):
            completion(nil, nil, error)
        case .response(let statusCode, let headers, let body):
            answer(statusCode: statusCode, headers: headers, body: body, error: nil, to: completion)
        case .brokenBody(let statusCode, let headers, let body, let error):
            // The bytes and the error together: the body broke after them (see `SessionTransport`).
            answer(statusCode: statusCode, headers: headers, body: body, error: error, to: completion)
        }
    }

    private func answer(
        statusCode: Int, headers: HTTPHeaders, body: Data, error: (any Error)?, to completion: Completion
    ) {
        guard let url = request.url else {
            completion(nil, nil, MockSessionError.missingURL)
            return
        }
        let httpResponse = HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)
        completion(body, httpResponse, error)
    }
}
