import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``: one long-lived, delegate-based `URLSession` that streams each
/// body with backpressure and counts the response size limit as bytes arrive.
///
/// ```swift
/// let transport = URLSessionTransport(configuration: .ephemeral)
/// let network = HTTPNetwork(configuration: configuration, transport: transport)
/// ```
///
/// As an ``HTTPTransport`` it follows the seam's contract: ``send(_:)`` returns once the head has
/// arrived; the body follows as it arrives, and when its reader falls more than 1 MiB behind the
/// data task is suspended until the reader catches up; it never follows a redirect (the library
/// does, applying the network's ``RedirectPolicy``); the size limit is the request's
/// ``TransportRequest/maximumResponseSize`` (or this transport's own, if smaller), so one
/// transport can serve networks with different limits.
///
/// It is also a ``Session``, for code that calls ``dataTask(for:completion:)`` or passes it to
/// ``HTTPNetwork/init(configuration:session:)``: then it applies its own settings, given
/// at creation: it follows redirects by its `redirectPolicy`, never forwarding credentials (the
/// headers `sensitiveData` names) to another origin nor following a redirect out of http and
/// https, and stops a body past its `maximumResponseSize`.
///
/// Lifetime: the `URLSession` keeps a strong reference to its delegate until it is invalidated,
/// and this transport never invalidates it on its own, because short-lived sessions crash in
/// libcurl's teardown on Linux. On Apple platforms the session, its delegate and its connections
/// therefore live until ``invalidate()`` is called, even after the transport is released. Create
/// one transport and keep it for as long as its networks live; ``HTTPNetwork``
/// invalidates the transport it created itself when it is invalidated or released, never one
/// passed in.
///
/// Cookies: Foundation's own cookie handling is off in the session it creates, whatever the
/// configuration passed in says; each network applies its ``NetworkConfiguration/cookieStorage``
/// itself, alike over every transport. Used as a ``Session``, each task keeps the cookies its
/// redirects set for the hops that follow, and nothing after it ends.
///
/// Caching: the session has no `URLCache`, whatever the configuration says (`.default` and
/// `.ephemeral` both carry one). A `URLCache` keys answers by URL alone, so it would hand one
/// user's cacheable answer to another user's network. Store answers with a ``ResponseStore`` and
/// a ``StoragePolicy`` (``HTTPNetwork/send(_:storage:policy:priority:)``), which keep each
/// ``StoragePartition`` apart. A request's ``NetworkRequest/cachePolicy`` therefore finds nothing
/// in Foundation's cache.
///
/// Memory: on Linux each chunk of a body is counted inside libcurl's own callback, before the next
/// one is read, so a response stopped by the size limit costs about the limit in memory, even a
/// small compressed body that would inflate to far more. (FoundationNetworking otherwise queues
/// every chunk for the delegate without waiting, and keeps downloading meanwhile.)
public final class URLSessionTransport: HTTPTransport, Session, GatheringTransport {
    private let session: URLSession
    private let delegate: TransportDelegate
    private let invalidated = LockedState(false)
    /// The TLS policy's first setting this transport cannot apply, which fails every send.
    private let refusal: NetworkError?
    /// The longest one-shot stream body (``RequestBody/stream(_:length:contentType:)``) the
    /// transport sends: 32 MiB. A `URLSession` takes a body as bytes or as an `InputStream`, so the
    /// stream is gathered in memory first, up to this size; a longer one fails with
    /// ``NetworkError/invalidRequest(reason:)`` before anything is sent, never gathered without
    /// bound. Send a large body from a file (read as it is sent), or through
    /// `AsyncHTTPClientTransport`, which sends a stream as it is produced.
    public static let maximumStreamBodySize = 32 * 1_048_576
    /// The configuration the session runs with, as `isolated(_:)` made it (for tests).
    var sessionConfiguration: URLSessionConfiguration { session.configuration }
    /// The transport's own limit, applied on top of each request's.
    private let maximumResponseSize: Int?
    /// Where a streamed body's spill file goes, and how large it may grow (Linux only).
    private let spillSettings: SpillFile.Settings
    /// How its ``Session`` side follows redirects.
    let redirects: RedirectFollower

    /// Creates a transport and its session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration.
    ///   - redirectPolicy: Whether redirects are followed, and how many, when the transport is
    ///     used as a ``Session``; as an ``HTTPTransport`` it follows none, and the network applies
    ///     its own ``NetworkConfiguration/redirectPolicy``.
    ///   - maximumResponseSize: The largest body accepted, in bytes; a larger one stops the transfer
    ///     and fails with ``NetworkError/responseTooLarge(limit:)``. `nil` means no limit of its
    ///     own: each request's ``TransportRequest/maximumResponseSize`` still applies.
    ///   - sensitiveData: Whose headers are removed when a redirect the ``Session`` side follows
    ///     leads to another origin; pass the network's ``NetworkConfiguration/sensitiveData`` so
    ///     that one list governs both.
    ///   - spillDirectory: On Linux, the folder where a streamed body's reader that falls behind
    ///     has its bytes kept (see <doc:LinuxNotes>); `nil` for `NSTemporaryDirectory()`, which is
    ///     often a `tmpfs`, that is memory. A download whose folder is known before the head
    ///     keeps what arrives before it takes the body over in that folder instead. Unused on
    ///     Apple platforms, which pause the transfer.
    ///   - maximumSpillSize: On Linux, the most bytes one streamed body keeps on disk for a reader
    ///     that falls behind (what it has read gives its space back, where the file system can),
    ///     64 MiB unless given; past it the transfer stops with
    ///     ``NetworkError/readerFellBehind(limit:)``. A download writes each chunk to its file as
    ///     it arrives, and keeps only what arrives before it takes over (while the send's stages
    ///     look at the head), in its own folder and without this limit where that folder is known
    ///     before the head.
    ///   - tls: A ``TLSPolicy``. `URLSession` applies none of its settings (see ``TLSPolicy``):
    ///     with anything but ``TLSPolicy/system`` every send fails at once with
    ///     ``NetworkError/tlsSettingUnavailable(_:)``, rather than ignore a pin or a root of trust.
    public init(
        configuration: URLSessionConfiguration = .default,
        redirectPolicy: RedirectPolicy = .default,
        maximumResponseSize: Int? = nil,
        sensitiveData: SensitiveData = .default,
        spillDirectory: URL? = nil,
        maximumSpillSize: Int = 64 * 1_048_576,
        tls: TLSPolicy = .system
    ) {
        self.refusal = tls.firstSetting(notIn: []).map { NetworkError.tlsSettingUnavailable($0) }
        let delegate = TransportDelegate()
        self.delegate = delegate
        self.maximumResponseSize = maximumResponseSize
        self.spillSettings = SpillFile.Settings(directory: spillDirectory, limit: maximumSpillSize)
        self.redirects = RedirectFollower(policy: redirectPolicy, redaction: Redaction(sensitiveData))
        self.session = URLSession(
            configuration: Self.isolated(configuration), delegate: delegate, delegateQueue: Self.delegateQueue())
    }

    /// A copy of `configuration` (the caller's object is left alone) that keeps nothing of its own
    /// between requests: no cookies and no URL cache.
    ///
    /// - Cookies: the network applies its own ``NetworkConfiguration/cookieStorage`` on every
    ///   transport. Left on, every network over this session shared `HTTPCookieStorage.shared`,
    ///   and on Linux a stored cookie replaced the `Cookie` header a request set itself.
    /// - URL cache: a ``ResponseStore`` stores answers, each in its partition.
    ///   `URLCache` keys by URL alone, so a session with one (`.default` and `.ephemeral` both have
    ///   one) could hand one user's cacheable answer to another user's network. On Linux it also
    ///   made a cancellation that met the task's completion stop the process: FoundationNetworking
    ///   reads the cache on another queue before the task's protocol exists, and the cancellation
    ///   then reports on a task that has already left the session's registry.
    /// - Credential storage: actions authenticate. With a `URLCredentialStorage`, a `URLSession` on
    ///   Apple platforms answers a `401` challenge itself with a credential stored for its
    ///   protection space (by any part of the app), which then never reaches the actions.
    private static func isolated(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        copy.httpCookieAcceptPolicy = .never
        copy.urlCache = nil
        copy.urlCredentialStorage = nil
        return copy
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

    /// Sends `request` and returns once its head has arrived; see ``HTTPTransport``. After
    /// ``invalidate()`` it fails with ``NetworkError/invalidated`` without reaching the session.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if let refusal { throw refusal }
        let urlRequest = try await URLRequest.sending(request, readsFileItself: true)
        return try await exchange(
            for: urlRequest, body: request.body, limit: limit(of: request), delivery: .streamed,
            spillSettings: spillSettings(for: request), uploadProgress: request.uploadProgress,
            uploadLength: request.body?.length
        ).head()
    }

    /// Where `request`'s body is kept when its reader falls behind (Linux only): a download whose
    /// folder is known keeps what arrives before it takes the body over (see
    /// ``TransportRequest/Download``) in a spill file in that folder, without a limit but the
    /// response's own, since the download writes every one of those bytes there anyway. The
    /// transport's spill folder, often a `tmpfs`, that is memory, is for readers that fell behind,
    /// up to its limit.
    private func spillSettings(for request: TransportRequest) -> SpillFile.Settings {
        guard let folder = request.download?.folder else { return spillSettings }
        return SpillFile.Settings(directory: folder, limit: .max)
    }

    /// The largest body `request` may have: its own limit or the transport's, whichever is smaller.
    private func limit(of request: TransportRequest) -> Int? {
        switch (request.maximumResponseSize, maximumResponseSize) {
        case (let first?, let second?): min(first, second)
        case (let only?, nil), (nil, let only?): only
        case (nil, nil): nil
        }
    }

    /// A new exchange for `urlRequest`, whose task the control queue makes when it starts.
    private func exchange(
        for urlRequest: URLRequest, body: TransportRequestBody?, limit: Int?, delivery: URLSessionExchange.Delivery,
        spillSettings: SpillFile.Settings? = nil, uploadProgress: TransferProgressHandler? = nil,
        uploadLength: Int? = nil
    ) -> URLSessionExchange {
        let ownedBody: URLSessionExchange.OwnedBody? =
            switch body?.source {
            case nil: nil
            case .file(let url)?: Self.fileBody(url, length: body?.length)
            case .bytes?, .stream?: Self.bytesBody(of: urlRequest)
            }
        return URLSessionExchange(
            sending: urlRequest, ownedBody: ownedBody, on: self, limit: limit, delegate: delegate,
            delivery: delivery, spillSettings: spillSettings ?? self.spillSettings, uploadProgress: uploadProgress,
            uploadLength: uploadLength)
    }

    /// The file body at `url`, `length` bytes long, as the session sends it.
    private static func fileBody(_ url: URL, length: Int?) -> URLSessionExchange.OwnedBody {
        #if canImport(FoundationNetworking)
            // A file body's length is its size, read when the body was made.
            OwnedRequestBody(file: url, length: length ?? 0)
        #else
            url
        #endif
    }

    /// The bytes `urlRequest` carries (a data body, or a stream gathered into one), as the session
    /// sends them: on Linux from a stream of the library's own, which libcurl can have again when
    /// it sends the request on a fresh connection (see ``OwnedRequestBody``); elsewhere as they
    /// are, `nil`.
    private static func bytesBody(of urlRequest: URLRequest) -> URLSessionExchange.OwnedBody? {
        #if canImport(FoundationNetworking)
            OwnedRequestBody(bytesOf: urlRequest)
        #else
            nil
        #endif
    }

    /// The session's task for `urlRequest`, or `nil` once the transport is invalidated. An owned
    /// body goes out with its `Content-Length` on every platform, where a plain `URLSession` on
    /// Linux sends a body read from a stream chunked, and many upload endpoints (S3's pre-signed
    /// PUTs among them) answer that with 411. A file body, which the request was built without
    /// (`readsFileItself`), is read on Apple platforms by an upload task; on Linux the library
    /// reads it itself (see ``OwnedRequestBody``), for FoundationNetworking's own reader can stop
    /// the process when its upload is cancelled, and sends a file that changed size as it finds
    /// it; and there a data body goes out from a stream of the library's too, which libcurl can
    /// have again when it sends the request on a fresh connection.
    func task(for urlRequest: URLRequest, ownedBody: URLSessionExchange.OwnedBody?) -> URLSessionDataTask? {
        // Made under the same lock that `invalidate()` takes, so a task is either made before the
        // session is invalidated or not at all: making one in an invalidated session stops the
        // process on Linux.
        invalidated.withLock { invalidated -> URLSessionDataTask? in
            guard !invalidated else { return nil }
            guard let ownedBody else { return session.dataTask(with: urlRequest) }
            #if canImport(FoundationNetworking)
                return session.dataTask(with: ownedBody.attached(to: urlRequest))
            #else
                return session.uploadTask(with: urlRequest, fromFile: ownedBody)
            #endif
        }
    }

    /// Creates a task, not yet resumed, whose `completion` is called exactly once: with the body
    /// and response, with the transport's or the session's error, or with `URLError(.cancelled)`.
    ///
    /// The task sends the request's method, URL, headers, body and cache policy, follows
    /// redirects by the transport's own policy, and holds the body to its own
    /// `maximumResponseSize`. After ``invalidate()`` it fails with ``NetworkError/invalidated``
    /// when resumed, without reaching the session.
    public func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        TransportSessionTask(request, transport: self, completion: completion)
    }

    /// A task that carries `request` whole (see ``GatheringTransport``); `nil` for a body that is a
    /// one-shot stream, which ``send(_:)`` reads first. After ``invalidate()`` it fails with
    /// ``NetworkError/invalidated`` when resumed.
    func gatheringTask(for request: TransportRequest, reportingTo call: TransportCall) -> (any SessionTask)? {
        if let refusal { return FailedSessionTask(error: refusal, reportingTo: call) }
        let delegate = delegate
        let delivery = URLSessionExchange.Delivery.gathered { outcome in
            // The completion runs on the session's queue, where following a redirect could not
            // create its task (see `TransportDelegate`); a redirect is handed over from the
            // control queue instead. It is rare, so the hop costs nothing that matters.
            if case .success(let response) = outcome, (300..<400).contains(response.statusCode) {
                delegate.control { call.gathered(outcome) }
            } else {
                call.gathered(outcome)
            }
        }
        let limit = limit(of: request)
        return URLRequest.gatheringTask(for: request, reportingTo: call, readsFileItself: true) { urlRequest in
            exchange(for: urlRequest, body: request.body, limit: limit, delivery: delivery)
        }
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

    /// The body bytes received and not yet read, over every task: what backpressure bounds.
    var bufferedByteCount: Int {
        delegate.bufferedByteCount
    }

    /// The number of tasks that have not ended yet; zero once every task ended.
    var activeTaskCount: Int {
        delegate.activeTaskCount
    }
}
