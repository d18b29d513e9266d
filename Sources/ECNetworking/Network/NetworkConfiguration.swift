import Foundation

/// How a ``HTTPNetwork`` builds, sends, validates and decodes requests.
///
/// ```swift
/// var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!, logging: true)
/// configuration.maximumConcurrentRequests = 4
/// configuration.defaultHeaders["Accept"] = "application/json"
/// configuration.timeout = .seconds(10)
/// ```
public struct NetworkConfiguration: Sendable {
    /// The URL every ``Request`` builds on.
    public var baseURL: URL
    /// Whether the built-in logging is on; it sees each stage after every action.
    public var logging: Bool
    /// What the built-in logging writes.
    public var loggingOptions: LoggingOptions
    /// The names of the headers, query parameters and body fields that hold secrets: redacted in
    /// logs, the cURL line and the metrics hook's request, and, for headers, not forwarded on a
    /// redirect to another origin. ``SensitiveData/default`` unless changed.
    public var sensitiveData: SensitiveData
    /// How many requests may be on the wire at once; the rest wait in priority order, a waiting
    /// request rising one priority step for every 32 requests admitted while it waits, so `.low`
    /// ones are not starved. `nil`, the default, means no limit. A value below 1 admits nothing: every
    /// send fails with ``NetworkError/invalidRequest(reason:)`` naming this property, and nothing
    /// goes on the wire.
    public var maximumConcurrentRequests: Int?
    /// Headers added to every request that does not set the same name, before the will-begin actions.
    public var defaultHeaders: HTTPHeaders
    /// How long one attempt may take, head and body and any redirects; 60 seconds by default, `nil`
    /// for no limit. A request's own ``NetworkRequest/timeout`` wins.
    public var timeout: Duration?
    /// Encodes JSON bodies.
    public var encoder: JSONEncoder
    /// Decodes `Decodable` responses.
    public var decoder: JSONDecoder
    /// Status codes that count as success; 200..<300 by default. A request's own
    /// ``NetworkRequest/acceptableStatusCodes`` wins.
    public var acceptableStatusCodes: Set<Int>
    /// Whether a response to a request with ``Request/acceptableContentTypes`` (every
    /// `Decodable` response, as JSON) is checked for a `Content-Type` the request accepts: its
    /// `Accept` header, or those types. On by default. A body of another type is still decoded
    /// (APIs that label JSON `text/plain` are common); only when the library's own decoding fails
    /// on it does the send fail, with ``NetworkError/unacceptableContentType(_:)`` rather than a
    /// decoding error. A request that decodes its body itself is not held to the types. A
    /// request's own ``NetworkRequest/validatesContentType`` wins.
    public var validatesContentType: Bool
    /// The most retries one send makes, whoever asks for them; 3 by default, so at most four
    /// attempts. Completed actions (``ResponseDecision/retry(after:)``) and the ``retryPolicy``
    /// draw on this one allowance, and ``RequestMetrics/retriedBy`` says who asked for each retry.
    /// A retry asked for once it is spent ends the send: with
    /// ``NetworkError/retryLimitReached(attempts:response:)`` when an action asked, with
    /// ``NetworkError/retriesExhausted(attempts:lastError:)`` when the policy did, after at least
    /// one retry (with no retry allowed, the policy's first failure ends the send as it is). Below
    /// zero means zero.
    public var maximumRetries: Int
    /// The queue completion handlers are called on; `nil`, the default, calls them on whichever
    /// thread the send finished on (a server or command-line tool may never run the main queue).
    public var completionQueue: DispatchQueue?
    /// Called once after every send, successful or not, with its timings; not for a request whose
    /// ``Request/buildRequest(with:)`` threw (nothing was sent) nor for an answer a response store
    /// gave without a network call. The request and the error it gets are redacted with
    /// ``sensitiveData`` (see ``RequestMetrics/request`` and ``RequestMetrics/error``). A streamed send (a
    /// stream, a download, an OpenAPI operation, each connection of a Server-Sent Events
    /// subscription) is reported when its body ends, with the error that ended the body, if any.
    public var metricsHandler: (@Sendable (RequestMetrics) -> Void)?
    /// The largest body accepted, in bytes; a larger one stops the transfer and fails with
    /// ``NetworkError/responseTooLarge(limit:)``. Bytes are counted as they arrive (`Content-Length`
    /// is not trusted). `nil`, the default, means no limit.
    public var maximumResponseSize: Int?
    /// The most bytes of a failing status's body that a send reading its body itself reads for
    /// its error (`stream(_:priority:progress:)`, ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``,
    /// a send with progress, an OpenAPI operation); 64 KiB by default. The rest is not read: the
    /// transfer stops there and its connection closes, so a huge or endless error page cannot
    /// hold the send or fill memory, and ``NetworkError/unacceptableStatusCode(_:)`` carries the
    /// first bytes. Below zero means zero. ``maximumResponseSize`` still applies within it.
    public var maximumErrorBodySize: Int
    /// How redirects are followed; see ``RedirectPolicy``. The library applies it itself, alike over
    /// every ``HTTPTransport`` (the default one and one passed to
    /// ``HTTPNetwork/init(configuration:transport:)``); a ``Session`` you pass in follows
    /// its own rules.
    public var redirectPolicy: RedirectPolicy
    /// Where the network keeps the cookies its servers set: by default a ``CookieJar`` of its own,
    /// in memory (``CookieStorage/perNetwork``), so that two networks, such as two users' on one
    /// server, never see each other's cookies. Applied the same way over every transport and on
    /// every redirect hop; a `Cookie` header a request carries itself is always sent. A `URLSession`
    /// you pass as a ``Session`` keeps its own cookie handling besides: choose
    /// ``CookieStorage/disabled`` to leave cookies to it alone.
    public var cookieStorage: CookieStorage
    /// Whether identical GETs in progress at the same time share one transport call; `false` by
    /// default. Identical means the same method, URL with query, headers, body and cache policy;
    /// the timeout may differ.
    ///
    /// Only the server sees fewer requests: each caller keeps its own timeout (counted from when
    /// the shared request is on the wire, or from when it joins, if later) and its own
    /// cancellation, and neither ends the request for the others; it is cancelled when its last
    /// caller leaves. Only the request on the wire holds a ``maximumConcurrentRequests`` slot.
    /// Each caller still runs every action stage itself, so its began actions, response actions,
    /// log lines and metrics are its own; a joining caller's log line says it joined. That is why
    /// it is off by default: the actions of N callers see N requests, the server one. A request
    /// opts out with ``AllowsCoalescing``.
    public var coalescesIdenticalRequests: Bool
    /// Retries failed attempts with back-off, within ``maximumRetries``; `nil`, the default,
    /// retries only when a completed action asks. See ``RetryPolicy``.
    public var retryPolicy: RetryPolicy?
    /// How long one action may take at one stage before the send fails with
    /// ``NetworkError/actionTimedOut(action:after:)``; `nil`, the default, means no limit. A limit
    /// of zero or below fails a send that runs an action with
    /// ``NetworkError/invalidRequest(reason:)`` naming this setting.
    ///
    /// With a limit, each action runs in a task of its own, which the deadline, the caller's
    /// cancellation and ``HTTPNetwork/cancelAll()`` cancel; without one, actions run in the
    /// sending task, which costs less, and `cancelAll()` ends the send once the action returns.
    public var actionTimeout: Duration?
    /// How long a streamed body (`stream(_:priority:progress:)`, ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``)
    /// may go without a byte from the server before it fails with
    /// ``NetworkError/timedOut(after:)``; 60 seconds by default, `nil` for no limit. It replaces
    /// ``timeout`` for the body, which a stream may take as long as it likes to deliver; the head
    /// is still bounded by ``timeout``. Time the reader spends away while bytes wait for it does
    /// not count.
    public var streamIdleTimeout: Duration?
    /// Whether a streamed send keeps its ``maximumConcurrentRequests`` slot until its body ends;
    /// `false` by default, so that long streams (events, token streams) do not starve other
    /// requests: the slot is freed when the head arrives. A download always keeps its slot until
    /// its body ends: its body is the transfer the limit bounds.
    public var streamsHoldConcurrencySlot: Bool
    /// The integrations that follow every send (tracing, metrics); set through their own
    /// properties, such as `tracer` and `metricsFactory`.
    var observers: [any SendObserver] = []

    /// Where the built-in logging writes; a shortcut for `loggingOptions.sink`.
    public var logSink: LogSink {
        get { loggingOptions.sink }
        set { loggingOptions.sink = newValue }
    }

    /// Creates a configuration with defaults for everything but the base URL and logging.
    public init(baseURL: URL, logging: Bool = false) {
        self.baseURL = baseURL
        self.logging = logging
        self.loggingOptions = LoggingOptions()
        self.sensitiveData = .default
        self.maximumConcurrentRequests = nil
        self.defaultHeaders = [:]
        self.timeout = .seconds(60)
        self.encoder = JSONEncoder()
        self.decoder = JSONDecoder()
        self.acceptableStatusCodes = Set(200..<300)
        self.validatesContentType = true
        self.maximumRetries = 3
        self.completionQueue = nil
        self.metricsHandler = nil
        self.maximumResponseSize = nil
        self.maximumErrorBodySize = 65_536
        self.redirectPolicy = .default
        self.cookieStorage = .perNetwork
        self.actionTimeout = nil
        self.coalescesIdenticalRequests = false
        self.retryPolicy = nil
        self.streamIdleTimeout = .seconds(60)
        self.streamsHoldConcurrencySlot = false
    }
}
