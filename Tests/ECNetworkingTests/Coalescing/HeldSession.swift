import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session whose requests stay on the wire until the test answers them, so that coalescing
/// tests decide when a response arrives instead of racing a delay against a deadline.
final class HeldSession: Session {
    fileprivate struct Held {
        let request: URLRequest
        let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    }

    private struct State {
        var held: [Int: Held] = [:]
        var nextTask = 0
        var startedPaths: [String] = []
        var cancelledCount = 0
    }

    private let state = LockedState(State())

    /// The paths of every request resumed so far, in order.
    var startedPaths: [String] { state.withLock { $0.startedPaths } }

    /// How many requests are on the wire, neither answered nor cancelled.
    var heldCount: Int { state.withLock { $0.held.count } }

    /// How many resumed requests were cancelled before they were answered.
    var cancelledCount: Int { state.withLock { $0.cancelledCount } }

    func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        let identifier = state.withLock { state in
            defer { state.nextTask += 1 }
            return state.nextTask
        }
        return HeldTask(session: self, identifier: identifier, request: request, completion: completion)
    }

    /// Answers every held request whose path is `path` (every one when `nil`) with `statusCode`
    /// and `body`; returns how many were answered.
    @discardableResult
    func answer(path: String? = nil, statusCode: Int = 200, body: Data = Data()) -> Int {
        let answered = state.withLock { state in
            let matching = state.held.filter { path == nil || $0.value.request.url?.path == path }
            for identifier in matching.keys { state.held.removeValue(forKey: identifier) }
            return Array(matching.values)
        }
        for held in answered {
            let response = HTTPURLResponse(
                url: held.request.url!, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: [:])
            held.completion(body, response, nil)
        }
        return answered.count
    }

    fileprivate func start(_ identifier: Int, _ held: Held) {
        state.withLock { state in
            state.held[identifier] = held
            state.startedPaths.append(held.request.url?.path ?? "")
        }
    }

    fileprivate func cancel(_ identifier: Int) {
        let held = state.withLock { state in
            let held = state.held.removeValue(forKey: identifier)
            if held != nil { state.cancelledCount += 1 }
            return held
        }
        held?.completion(nil, nil, URLError(.cancelled))
    }
}

/// A task of ``HeldSession``.
private struct HeldTask: SessionTask {
    let session: HeldSession
    let identifier: Int
    let request: URLRequest
    let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    func resume() {
        session.start(identifier, .init(request: request, completion: completion))
    }

    func cancel() {
        session.cancel(identifier)
    }
}
