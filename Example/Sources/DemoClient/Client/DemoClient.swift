import DemoServer
import ECNetworking
import Foundation

/// The demo API's client: one ``URLSessionNetwork`` set up the way an app would set it up.
///
/// ```swift
/// let client = DemoClient(baseURL: server.baseURL)
/// let users = try await client.send(ListUsersRequest(online: true))   // logs in first, once
/// try await client.send(DeleteUserRequest(id: users[0].id))
/// ```
///
/// What it sets up:
/// - Logging on, written to the ``LogSink`` given (standard output unless swapped).
/// - A ``RetryPolicy`` that retries idempotent requests on `503` and other transient failures,
///   waiting as long as the server's `Retry-After` says.
/// - The actions, in this order: a ``StageTracer`` (when a stage observer is given), then an
///   `AuthenticatingAction` with a ``DemoAuthenticator`` that logs in on demand, once for all
///   requests that need it at the same time, and again after a `401`.
/// - The library's default transport, which applies the configuration's response size limit as
///   bytes arrive and its redirect policy (no credentials to another origin) on the wire.
///
/// The transport's session lives as long as the process, as the library recommends: create one
/// client and keep it.
public final class DemoClient: Sendable {
    /// The network every request goes through; add actions to it, or send raw requests.
    public let network: URLSessionNetwork
    private let authentication: AuthenticatingAction<DemoAuthenticator>
    private let refreshes: RefreshCounter

    /// Creates a client of the demo API at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: Where the server is, such as `http://127.0.0.1:8080`.
    ///   - credentials: What the client logs in with.
    ///   - logSink: Where the built-in logging action writes.
    ///   - stageObserver: Told about every action stage of every request, through a
    ///     ``StageTracer``; `nil` adds no tracer.
    ///   - configure: Changes the configuration before the network is built, for example a
    ///     concurrency limit, a response size limit, or no retry policy.
    ///   - session: What the network sends through instead of the library's default transport:
    ///     a `MockSession` from `ECNetworkingTesting`, such as one replaying a recorded HAR file,
    ///     so the whole client (actions, login, retries, decoding) runs with no server.
    public init(
        baseURL: URL,
        credentials: Credentials = .demo,
        logSink: LogSink = .standardOutput,
        stageObserver: (@Sendable (StageEvent) -> Void)? = nil,
        configure: (inout NetworkConfiguration) -> Void = { _ in },
        session: (any Session)? = nil
    ) {
        var configuration = NetworkConfiguration(baseURL: baseURL, logging: true)
        configuration.logSink = logSink
        configuration.defaultHeaders["Accept"] = "application/json"
        // Three attempts at most; a server's Retry-After decides the wait, capped at ten seconds.
        configuration.retryPolicy = RetryPolicy(
            maximumAttempts: 3, baseDelay: .milliseconds(200), maximumDelay: .seconds(10))
        configure(&configuration)

        let network =
            session.map { URLSessionNetwork(configuration: configuration, session: $0) }
            ?? URLSessionNetwork(configuration: configuration)
        // First, so that its will-begin line shows a request before it waits for a login.
        if let stageObserver {
            network.add(action: StageTracer(stageObserver))
        }
        let refreshes = RefreshCounter()
        let authenticator = DemoAuthenticator(network: network, credentials: credentials, refreshes: refreshes)
        let authentication = AuthenticatingAction(authenticator: authenticator)
        network.add(action: authentication)
        self.network = network
        self.authentication = authentication
        self.refreshes = refreshes
    }

    /// Sends `request` and returns its typed response, logging in first when it needs a token
    /// and none is held yet.
    ///
    /// - Throws: ``NetworkError`` from the library (an error status carries the server's
    ///   ``APIError``, readable with `decodeBody(APIError.self)`), or the login's error.
    @discardableResult
    public func send<R: DemoRequest>(_ request: R, priority: RequestPriority = .normal) async throws -> R.Response {
        try await network.send(request, priority: priority)
    }

    /// The token the client holds, or `nil` before the first login.
    public var token: Token? {
        get async { await authentication.credential }
    }

    /// How many logins this client has started: one on demand, plus one per rejected token.
    public var refreshCount: Int {
        get async { await refreshes.count }
    }
}
