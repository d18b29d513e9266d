import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate behind ``URLSessionTransport``: it collects each task's body, enforces the
/// response size limit as bytes arrive, applies the ``RedirectPolicy``, and calls each task's
/// completion exactly once.
///
/// It is the session's delegate rather than a per-task delegate because on Linux only the
/// session's delegate is asked about redirects.
///
/// The invariant that keeps "exactly once": a task has an entry in `tasks` until its completion
/// is due, and whoever removes the entry calls the completion. A path that removes an entry before
/// the session reports the task complete either cancels the session task (cancellation, the size
/// limit) or lets it end on its own (too many redirects), so a callback that finds no entry
/// belongs to a task that has already ended and is ignored.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked` because `NSObject` is not `Sendable`, so the compiler cannot check this class.
    // It is safe: every stored property is a constant of a `Sendable` type, and the only mutable
    // state, the task table, is read and written only inside its `LockedState`.
    private let redirectPolicy: RedirectPolicy
    private let maximumResponseSize: Int?
    private let redirectRewriter: RedirectRewriter
    private let tasks = LockedState([Int: TransportTaskState]())

    /// Creates the delegate for a session with `configuration`, whose cookie settings redirects
    /// follow.
    init(
        configuration: URLSessionConfiguration, redirectPolicy: RedirectPolicy, maximumResponseSize: Int?,
        sensitiveData: SensitiveData
    ) {
        self.redirectPolicy = redirectPolicy
        self.maximumResponseSize = maximumResponseSize
        self.redirectRewriter = RedirectRewriter(sensitiveData: sensitiveData, configuration: configuration)
    }

    /// The number of tasks whose completion has not been called yet.
    var activeTaskCount: Int {
        tasks.withLock { $0.count }
    }

    /// Starts tracking `task`; must happen before it is resumed, so no callback can miss its entry.
    func register(
        _ task: URLSessionTask,
        originalURL: URL?,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        let state = TransportTaskState(completion: completion, originalURL: originalURL)
        tasks.withLock { $0[task.taskIdentifier] = state }
    }

    /// Whether the task's completion is still due.
    func isActive(_ taskIdentifier: Int) -> Bool {
        tasks.withLock { $0[taskIdentifier] != nil }
    }

    /// Ends the task with `error` unless it already ended; returns whether this call ended it.
    @discardableResult
    func end(_ taskIdentifier: Int, with error: any Error) -> Bool {
        guard let state = tasks.withLock({ $0.removeValue(forKey: taskIdentifier) }) else { return false }
        state.completion(nil, nil, error)
        return true
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let identifier = dataTask.taskIdentifier
        let limit = maximumResponseSize
        let overLimit = tasks.withLock { tasks -> TransportTaskState? in
            guard let received = tasks[identifier]?.body.count else { return nil }
            if let limit, received + data.count > limit {
                // The chunk that crosses the limit is never stored, so the body never exceeds it.
                return tasks.removeValue(forKey: identifier)
            }
            // Appending through the dictionary's subscript mutates the stored body in place;
            // copying the state out first would copy the whole body on every chunk.
            tasks[identifier]?.body.append(data)
            return nil
        }
        guard let overLimit, let limit else { return }
        // Content-Length is not trusted (on Linux it keeps the compressed size of a decoded
        // body), so this is the only place the limit is enforced; stopping here frees the
        // connection instead of downloading the rest.
        dataTask.cancel()
        overLimit.completion(nil, nil, NetworkError.responseTooLarge(limit: limit))
    }

    // MARK: - URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        switch decideRedirect(of: task.taskIdentifier) {
        case .ignore:
            // The task was cancelled, and its entry removed, before this callback ran. Calling the
            // handler after the cancellation reached FoundationNetworking makes it stop the
            // process ("not waiting for it"), and a cancelled transfer does not wait for the
            // handler, so it is left uncalled.
            return
        case .deliver:
            completionHandler(nil)
        case .fail(let state):
            // Declining the redirect lets the session finish the 3xx transfer normally; its
            // completion then finds no entry and is ignored. Cancelling instead would race the
            // handler inside FoundationNetworking.
            completionHandler(nil)
            state.completion(nil, nil, NetworkError.tooManyRedirects(limit: redirectPolicy.maximumRedirects))
        case .follow(let originalURL):
            completionHandler(redirectRewriter.request(for: request, originalURL: originalURL))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            state.completion(nil, task.response, Self.mapped(error, redirectCount: state.redirectCount))
        } else {
            state.completion(state.body, task.response, nil)
        }
    }

    // MARK: - Redirects

    private enum RedirectDecision {
        /// The task already ended; the redirect is none of its business any more.
        case ignore
        /// Hand the 3xx response to the caller as it is.
        case deliver
        /// Too many redirects: end the task with the entry's completion.
        case fail(TransportTaskState)
        /// Follow, comparing the new origin with the one the caller asked for.
        case follow(originalURL: URL?)
    }

    private func decideRedirect(of identifier: Int) -> RedirectDecision {
        let policy = redirectPolicy
        return tasks.withLock { tasks in
            guard let state = tasks[identifier] else { return .ignore }
            guard policy.followsRedirects else { return .deliver }
            guard state.redirectCount < policy.maximumRedirects else {
                tasks[identifier] = nil
                return .fail(state)
            }
            tasks[identifier]?.redirectCount += 1
            // A 3xx body, should a platform deliver one, is not part of the final response.
            tasks[identifier]?.body = Data()
            return .follow(originalURL: state.originalURL)
        }
    }

    /// Reports the session's own redirect cap (20 on Linux, reached only when the policy allows
    /// more) as the same error as the policy's limit, so callers need to handle only one.
    private static func mapped(_ error: any Error, redirectCount: Int) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .httpTooManyRedirects else { return error }
        return NetworkError.tooManyRedirects(limit: redirectCount)
    }
}
