import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A task of ``MockSession``: answers once, from its stub, unless cancelled first.
final class MockSessionTask: SessionTask {
    private let request: URLRequest
    private let session: MockSession
    private let completion: LockedState<(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?>
    private let started = LockedState(false)

    init(
        request: URLRequest,
        session: MockSession,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.request = request
        self.session = session
        self.completion = LockedState(completion)
    }

    func resume() {
        // A cancelled task has given its completion away already; like URLSession, it stays dead.
        let cancelled = completion.withLock { $0 == nil }
        let firstResume = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard firstResume, !cancelled else { return }
        let response = session.start(request)
        if response.delay > .zero {
            DispatchQueue.global().asyncAfter(deadline: .now() + response.delay.seconds) {
                self.answer(with: response)
            }
        } else {
            answer(with: response)
        }
    }

    func cancel() {
        guard let completion = takeCompletion() else { return }
        if started.withLock({ $0 }) {
            session.finish(cancelled: true)
        } else {
            session.countCancellationBeforeStart()
        }
        completion(nil, nil, URLError(.cancelled))
    }

    private func answer(with response: MockResponse) {
        guard let completion = takeCompletion() else { return }
        session.finish(cancelled: false)
        switch response.outcome {
        case .failure(let error):
            completion(nil, nil, error)
        case .response(let statusCode, let headers, let body):
            guard let url = request.url else {
                completion(nil, nil, MockSessionError.missingURL)
                return
            }
            let httpResponse = HTTPURLResponse(
                url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)
            completion(body, httpResponse, nil)
        }
    }

    /// Takes the completion handler, so that exactly one of answering and cancelling calls it.
    private func takeCompletion() -> (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)? {
        completion.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }
}
