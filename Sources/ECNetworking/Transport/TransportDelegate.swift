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
///
/// On Linux the delegate methods run on FoundationNetworking's own queue, inside libcurl's
/// callbacks (see ``InlineOperationQueue``), which is what lets the size limit bound memory. A
/// delegate method must therefore never block, never call a caller's code, and never call a
/// session or task method that waits for that queue (`cancel()`, `resume()`, `suspend()`, creating
/// a task): completions go to `completionQueue`, and cancelling a session task to another queue.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked` because `NSObject` is not `Sendable`, so the compiler cannot check this class.
    // It is safe: every stored property is a constant of a `Sendable` type, and the only mutable
    // state, the task table, is read and written only inside its `LockedState`.
    private let redirectPolicy: RedirectPolicy
    private let maximumResponseSize: Int?
    private let redirectRewriter: RedirectRewriter
    private let tasks = LockedState([Int: TransportTaskState]())
    /// Where the completions the session's callbacks owe run, in the order they became due.
    private let completionQueue = DispatchQueue(label: "ECNetworking.URLSessionTransport.completions")

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
        // connection instead of downloading the rest. Until the cancellation takes effect, the
        // chunks still arriving find no entry and are dropped at once.
        DispatchQueue.global().async { dataTask.cancel() }
        complete(overLimit, error: NetworkError.responseTooLarge(limit: limit))
    }

    // MARK: - URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        switch decideRedirect(of: task.taskIdentifier, response: response, proposed: request) {
        case .ignore:
            // The task was cancelled, and its entry removed, before this callback ran. Calling the
            // handler after the cancellation reached FoundationNetworking makes it stop the
            // process ("not waiting for it"), and a cancelled transfer does not wait for the
            // handler, so it is left uncalled.
            return
        case .deliver:
            completionHandler(nil)
        case .fail(let state, let error):
            // Declining the redirect lets the session finish the 3xx transfer normally; its
            // completion then finds no entry and is ignored. Cancelling instead would race the
            // handler inside FoundationNetworking.
            completionHandler(nil)
            complete(state, error: error)
        case .follow(let originalURL):
            completionHandler(redirectRewriter.request(for: request, originalURL: originalURL))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            complete(state, response: task.response, error: Self.mapped(error, redirectCount: state.redirectCount))
        } else {
            complete(state, data: state.body, response: task.response, error: nil)
        }
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking asks this only about a complete 401 response whose challenge it
        /// knows (`WWW-Authenticate: Basic realm="api"`). Its default handling never ends the
        /// task when no credential is stored, and with one it suspends the task, which waits for
        /// the queue this runs on. The library authenticates with actions instead, so the 401 is
        /// delivered as it is, like any other 401; cancelling the challenge, from another queue,
        /// then lets the session drop the task, whose callback finds no entry.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            if let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                complete(state, data: state.body, response: challenge.failureResponse ?? task.response, error: nil)
            }
            completionQueue.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        }
    #endif

    /// Calls the completion of a task whose entry was just removed, on `completionQueue`: the
    /// caller's code must not run on the session's queue (see the type's comment).
    private func complete(
        _ state: TransportTaskState, data: Data? = nil, response: URLResponse? = nil, error: (any Error)?
    ) {
        completionQueue.async { state.completion(data, response, error) }
    }

    // MARK: - Redirects

    private enum RedirectDecision {
        /// The task already ended; the redirect is none of its business any more.
        case ignore
        /// Hand the 3xx response to the caller as it is.
        case deliver
        /// Too many redirects, or one that leaves http(s): end the task with `error`.
        case fail(TransportTaskState, NetworkError)
        /// Follow, comparing the new origin with the one the caller asked for.
        case follow(originalURL: URL?)
    }

    private func decideRedirect(of identifier: Int, response: HTTPURLResponse, proposed: URLRequest)
        -> RedirectDecision
    {
        let policy = redirectPolicy
        let refusedScheme = RedirectTarget.refusedScheme(of: response, proposed: proposed)
        return tasks.withLock { tasks in
            guard let state = tasks[identifier] else { return .ignore }
            guard policy.followsRedirects else { return .deliver }
            if let refusedScheme {
                tasks[identifier] = nil
                return .fail(state, .redirectRefused(scheme: refusedScheme))
            }
            guard state.redirectCount < policy.maximumRedirects else {
                tasks[identifier] = nil
                return .fail(state, .tooManyRedirects(limit: policy.maximumRedirects))
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
