import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Session`` over one long-lived, delegate-based `URLSession` that enforces what a plain
/// `URLSession` cannot on every platform: a response size limit counted as bytes arrive, and a
/// ``RedirectPolicy`` that never forwards credentials (the headers ``SensitiveData`` names) to
/// another origin nor follows a redirect out of http and https.
///
/// ```swift
/// var configuration = NetworkConfiguration(baseURL: baseURL)
/// configuration.maximumResponseSize = 1_048_576
/// let transport = URLSessionTransport(
///     redirectPolicy: configuration.redirectPolicy,
///     maximumResponseSize: configuration.maximumResponseSize,
///     sensitiveData: configuration.sensitiveData)
/// let network = URLSessionNetwork(configuration: configuration, session: transport)
/// ```
///
/// Lifetime: the `URLSession` keeps a strong reference to its delegate until it is invalidated,
/// and this transport never invalidates it on its own, because short-lived sessions crash in
/// libcurl's teardown on Linux. On Apple platforms the session, its delegate and its connections
/// therefore live until ``invalidate()`` is called, even after the transport is released. Create
/// one transport for a network and keep it for the network's whole life; ``URLSessionNetwork``
/// invalidates the transport it created itself when it is invalidated or released, never one
/// passed in.
///
/// Completions run on the transport's serial completion queue (a cancellation's on the thread that
/// cancels), so they should return quickly.
///
/// Memory: on Linux each chunk of a body is counted inside libcurl's own callback, before the next
/// one is read, so a response stopped by `maximumResponseSize` costs about the limit in memory,
/// even a small compressed body that would inflate to far more. (FoundationNetworking otherwise
/// queues every chunk for the delegate without waiting, and keeps downloading meanwhile.)
public final class URLSessionTransport: Session {
    private let session: URLSession
    private let delegate: TransportDelegate
    private let invalidated = LockedState(false)

    /// Creates a transport and its session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration.
    ///   - redirectPolicy: Whether redirects are followed, and how many.
    ///   - maximumResponseSize: The largest body accepted, in bytes; a larger one stops the transfer
    ///     and fails with ``NetworkError/responseTooLarge(limit:)``. `nil` means no limit.
    ///   - sensitiveData: Whose headers are removed when a redirect leads to another origin; pass
    ///     the network's ``NetworkConfiguration/sensitiveData`` so that one list governs both.
    public init(
        configuration: URLSessionConfiguration = .default,
        redirectPolicy: RedirectPolicy = .default,
        maximumResponseSize: Int? = nil,
        sensitiveData: SensitiveData = .default
    ) {
        let delegate = TransportDelegate(
            configuration: configuration, redirectPolicy: redirectPolicy, maximumResponseSize: maximumResponseSize,
            sensitiveData: sensitiveData)
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: Self.delegateQueue())
    }

    /// The queue the session calls its delegate on: on Linux one that runs each call at once, so
    /// libcurl waits for the size check of each chunk; elsewhere the session's own serial queue.
    private static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
            InlineOperationQueue()
        #else
            nil
        #endif
    }

    /// Creates a task, not yet resumed, whose `completion` is called exactly once: with the body
    /// and response, with the transport's or the session's error, or with `URLError(.cancelled)`.
    ///
    /// Resume or cancel every task: like a `URLSession` task, one dropped without either is kept
    /// until the transport is invalidated. After ``invalidate()`` the task fails with
    /// ``NetworkError/invalidated`` when resumed, without reaching the session.
    public func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        // Creating the task under the same lock that `invalidate()` takes means a task is either
        // created before the session is invalidated or not at all.
        let task = invalidated.withLock { invalidated -> URLSessionDataTask? in
            guard !invalidated else { return nil }
            let task = session.dataTask(with: request)
            delegate.register(task, originalURL: request.url, completion: completion)
            return task
        }
        guard let task else { return InvalidatedTransportTask(completion: completion) }
        return TransportTask(task: task, delegate: delegate)
    }

    /// Lets the tasks in flight finish, then releases the session and its delegate. Tasks
    /// created afterwards fail without being sent. Call it only when the transport is no longer
    /// needed, such as when its network is being torn down for good.
    public func invalidate() {
        let isFirstCall = invalidated.withLock { invalidated in
            defer { invalidated = true }
            return !invalidated
        }
        if isFirstCall { session.finishTasksAndInvalidate() }
    }

    /// The number of tasks whose completion has not been called yet; zero once every task ended.
    var activeTaskCount: Int {
        delegate.activeTaskCount
    }
}
