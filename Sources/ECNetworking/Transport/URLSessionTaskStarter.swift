import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A `URLSession` data task that is made, started and cancelled on a dispatch queue of its own,
    /// never on the caller's thread: what a `URLSession` of the app's own hands to a network on Linux.
    ///
    /// FoundationNetworking runs every session's work on one serial queue shared by the whole
    /// process, and making a task, `resume()` and `cancel()` each wait for that queue, which a
    /// transfer can hold for seconds (libcurl inflating a large compressed body runs there). Called
    /// from a Swift task, that wait would hold one of the concurrency runtime's threads (two on a
    /// 2-core machine) and stall every task of the process. One queue for every such task costs no
    /// parallelism, since FoundationNetworking serializes the work anyway, and keeps each task's
    /// `resume()` ahead of its `cancel()`.
    final class URLSessionTaskStarter: SessionTask {
        typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

        private static let queue = DispatchQueue(label: "ECNetworking.URLSession.tasks")

        private enum State {
            /// Neither resumed nor cancelled.
            case idle
            /// Resumed; the task, once the queue has made it.
            case resumed(URLSessionDataTask?)
            /// Cancelled; resumed first when `wasResumed`.
            case cancelled(wasResumed: Bool)
        }

        private let session: URLSession
        private let request: URLRequest
        private let completion: Completion
        private let state = LockedState(State.idle)

        init(session: URLSession, request: URLRequest, completion: @escaping Completion) {
            self.session = session
            self.request = request
            self.completion = completion
        }

        /// Makes the session's task and starts it, on the queue; a second call does nothing.
        func resume() {
            let isFirst = state.withLock { state -> Bool in
                guard case .idle = state else { return false }
                state = .resumed(nil)
                return true
            }
            guard isFirst else { return }
            Self.queue.async { [self] in
                let task = session.dataTask(with: request, completionHandler: completion)
                let isCancelled = state.withLock { state -> Bool in
                    guard case .resumed = state else { return true }
                    state = .resumed(task)
                    return false
                }
                // Cancelled while it was being made: FoundationNetworking reports the cancellation
                // to `completion`, as it does for any task cancelled before it answered.
                isCancelled ? task.cancel() : task.resume()
            }
        }

        /// Cancels the task; `completion` is called with `URLError(.cancelled)`, once, unless the
        /// task had already answered.
        func cancel() {
            let previous = state.withLock { state -> State in
                let previous = state
                switch state {
                case .idle: state = .cancelled(wasResumed: false)
                case .resumed: state = .cancelled(wasResumed: true)
                case .cancelled: break
                }
                return previous
            }
            switch previous {
            case .idle:
                // Never made: nothing else will call `completion`.
                completion(nil, nil, URLError(.cancelled))
            case .resumed(let task?):
                Self.queue.async { task.cancel() }
            case .resumed(nil), .cancelled:
                // Being made: the queue cancels it as soon as it exists. Or cancelled already.
                break
            }
        }
    }
#endif
