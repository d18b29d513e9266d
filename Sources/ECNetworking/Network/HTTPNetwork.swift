import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``Network`` that sends through an ``HTTPTransport`` (a `URLSession` by default, or any
/// ``Session``, or `AsyncHTTPClientTransport` with the `AsyncHTTPClient` trait), running each
/// request through the action stages, then validating the response and decoding the typed result.
///
/// ``URLSessionNetwork`` is the same class under the name ECNetworking has always given it; this
/// name reads right over every transport:
///
/// ```swift
/// let network = HTTPNetwork(configuration: .init(baseURL: baseURL, logging: true))
/// network.add(action: AuthenticationAction(tokens: tokens))
/// let users = try await network.send(ListUsersRequest(online: true))
/// ```
///
/// The flow of one send: build the request; will-begin actions in order; encode; wait for a slot
/// under ``NetworkConfiguration/maximumConcurrentRequests``; began actions; the transport;
/// response-began actions; completed actions (which may ask for a retry, going back to will-begin);
/// validation of the status; decoding. It keeps one session for its whole life.
///
/// Lifetime: like a `URLSession`, a network lives until you let it go, and an action that holds
/// the network (an authenticator that logs in through it) keeps it alive for ever. Call
/// ``invalidate()`` (or ``finishSendsAndInvalidate()``) when you are done with it: it ends the
/// sends in flight, drops the actions, and releases the transport the network created. A network
/// that is merely released (no send in flight can hold it, and no action holds it) releases its
/// own transport too, letting any task still on it finish first. A session you passed in is
/// yours: the network never invalidates it, just as a `URLSession` leaves its delegate alone.
public final class HTTPNetwork: Network, ActiveSendTracking {
    // Stored, not read from the runner: a computed property hands out a copy of the whole
    // configuration wherever the send path passes it on.

    /// The configuration it was created with.
    public let configuration: NetworkConfiguration
    /// The stages every send runs, with the transport as the transport step.
    let runner: StageRunner
    /// What carries each attempt (the transport passed in, a ``Session`` passed in (adapted), or
    /// the ``URLSessionTransport`` the network created), with the redirects followed for it: none
    /// for a ``Session`` passed in, which applies its own rules.
    let route: TransportRoute
    /// The transport the network created for itself, which only it may invalidate; `nil` when a
    /// transport or session was passed in.
    private let ownedTransport: URLSessionTransport?
    let actions: ActionRegistry
    let admission: AdmissionController?
    /// The configuration's ``NetworkConfiguration/sensitiveData``, prepared once.
    var redaction: Redaction { runner.redaction }
    package let activeSends = ActiveSendRegistry()
    /// Whether the log has said that a storage send bypassed the store; said once per network.
    let storageBypassLogged = LockedState(false)
    let coalescing = CoalescingRegistry()

    /// Creates a network that sends through `session`; by default a ``URLSessionTransport`` kept
    /// for the network's whole life (short-lived sessions crash in libcurl on Linux), over which the
    /// library follows ``NetworkConfiguration/redirectPolicy`` (removing
    /// ``NetworkConfiguration/sensitiveData``'s headers across origins) and stops a body past
    /// ``NetworkConfiguration/maximumResponseSize`` as its bytes arrive.
    ///
    /// A session passed in applies its own rules to redirects: a `URLSession` follows them itself,
    /// with its own limit and without removing credentials; a ``URLSessionTransport`` follows its
    /// own ``URLSessionTransport/init(configuration:redirectPolicy:maximumResponseSize:sensitiveData:spillDirectory:maximumSpillSize:tls:)``
    /// settings. ``NetworkConfiguration/maximumResponseSize`` applies to every session.
    public convenience init(configuration: NetworkConfiguration, session: (any Session)? = nil) {
        switch session {
        case let transport as URLSessionTransport:
            self.init(configuration: configuration, transport: transport, redirects: transport.redirects, owned: nil)
        case let session?:
            self.init(
                configuration: configuration, transport: SessionTransport(session: session), redirects: .disabled,
                owned: nil)
        case nil:
            let transport = URLSessionTransport(configuration: .default, sensitiveData: configuration.sensitiveData)
            self.init(configuration: configuration, transport: transport, redirects: nil, owned: transport)
        }
    }

    /// Creates a network that sends through `transport`, such as a ``URLSessionTransport`` or an
    /// `AsyncHTTPClientTransport`, applying ``NetworkConfiguration/redirectPolicy`` and
    /// ``NetworkConfiguration/maximumResponseSize`` to every response it returns.
    ///
    /// The transport is yours: the network never invalidates or shuts it down.
    public convenience init(configuration: NetworkConfiguration, transport: some HTTPTransport) {
        self.init(configuration: configuration, transport: transport, redirects: nil, owned: nil)
    }

    /// `redirects` `nil` means the configuration's policy.
    private init(
        configuration: NetworkConfiguration, transport: any HTTPTransport, redirects: RedirectFollower?,
        owned: URLSessionTransport?
    ) {
        self.configuration = configuration
        self.ownedTransport = owned
        let redaction = Redaction(configuration.sensitiveData)
        self.route = TransportRoute(
            transport,
            redirects: redirects ?? RedirectFollower(policy: configuration.redirectPolicy, redaction: redaction),
            cookies: configuration.cookieStorage.makeStore())
        self.actions = ActionRegistry()
        self.runner = StageRunner(configuration: configuration, actions: actions, redaction: redaction, logs: true)
        self.admission = configuration.maximumConcurrentRequests.map(AdmissionController.init(limit:))
    }

    /// Lets the transport the network created finish what it still has and release its session,
    /// delegate and connections (a `URLSession` keeps them until it is invalidated).
    deinit {
        ownedTransport?.invalidate()
    }

    /// Adds an action after those already added at every stage it
    /// conforms to. Requests already running pick it up from their next attempt.
    public func add(action: any Action) {
        actions.add(action)
    }

    /// Sends a request and returns its typed response.
    public func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response {
        try await send(request, priority: priority, reading: nil)
    }

    /// Sends a request and returns its typed response, reporting the transfer to `progress` as
    /// the bytes move; see ``TransferProgressHandler``.
    public func send<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler
    ) async throws -> R.Response {
        let progress = progress.forOneSend()
        defer { progress.finish() }
        let reading = BodyReading(streams: false, progress: progress, requestType: ObjectIdentifier(R.self))
        return try await send(request, priority: priority, reading: reading)
    }

    // Never inlined into the public entry points: those run on the generic executor, and inlined,
    // every suspension of this body became a hop back to it; this one inherits their executor.
    @inline(never) nonisolated(nonsending) private func send<R: Request>(
        _ request: R, priority: RequestPriority, reading: BodyReading?
    ) async throws -> R.Response {
        try await runner.send(request, registration: .registeredIn(activeSends), priority: priority, reading: reading) {
            NetworkTransportStep(network: self)
        }
    }

    /// Sends a raw request and returns the validated response, without decoding.
    public func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse {
        try await runner.send(
            request, registration: .registeredIn(activeSends), as: nil, priority: priority,
            through: { NetworkTransportStep(network: self) }, finishing: { response, _ in response })
    }

    /// Cancels every send in progress; each ends with ``NetworkError/cancelled``. Only the sends
    /// are cancelled, not the tasks that made them, which carry on (and may send again).
    ///
    /// A send ends at once wherever the network makes it wait: in the queue, on the wire, in a
    /// retry's back-off, waiting for a token refresh, and in an action run under
    /// ``NetworkConfiguration/actionTimeout`` (the action's task is cancelled). An action without a
    /// time limit is not interrupted: its send ends as cancelled when the action returns. An `async`
    /// send an action makes during its send (awaited, or in a `Task {}`, which takes the
    /// task-local context along) is cancelled with it; a completion-handler send the action
    /// starts, one in `Task.detached`, and a token refresh shared with other sends are not.
    public func cancelAll() {
        activeSends.cancel()
    }

    /// Cancels every send in progress of one request type; each ends with ``NetworkError/cancelled``,
    /// and so does a Server-Sent Events subscription made with a request of that type. Only the
    /// sends are cancelled, not the tasks that made them.
    public func cancelAll<R: Request>(of requestType: R.Type) {
        activeSends.cancel(requestType: ObjectIdentifier(requestType))
    }

    /// Ends the network's work for good, like `URLSession.invalidateAndCancel()`: cancels every
    /// send in progress (each ends with ``NetworkError/cancelled``), drops the actions (breaking a
    /// cycle through an action that holds the network), and invalidates the transport the network
    /// created, closing its connections. Every later send fails at once with
    /// ``NetworkError/invalidated``, sending nothing. Calling it again, or while
    /// ``finishSendsAndInvalidate()`` waits, cancels whatever is still in progress.
    ///
    /// A send through a response store is a send from its start: one still reading its store (code
    /// the library cannot interrupt) ends with ``NetworkError/cancelled`` once the read returns,
    /// without going to the network or answering from the store.
    ///
    /// A session or transport passed in is left alone: it is yours to invalidate or shut down. When a user signs out, clear what belongs to them as well: the credential
    /// (``AuthenticatingAction/signOut(removingStoredResponsesFrom:)``), which also clears the user's storage partition.
    public func invalidate() {
        activeSends.close()
        cancelAll()
        releaseResources()
    }

    /// Ends the network's work for good once the sends in progress have ended, like
    /// `URLSession.finishTasksAndInvalidate()`: sends started after this call fail at once with
    /// ``NetworkError/invalidated`` (a login an action starts for a send in progress included),
    /// those in progress run to their end, and then the actions are dropped and the transport the
    /// network created is invalidated. Returns when that is done. A Server-Sent Events subscription,
    /// which has no end to run to, ends with ``NetworkError/invalidated``. A send through a
    /// response store is in progress from its start: one still reading its store is waited for,
    /// and goes on to the network if it must. A stream or a download is in progress until its body
    /// has ended: a stream whose body nobody reads keeps this call waiting until it is read to its
    /// end or let go (which cancels it), so end your streams' readers first, or call
    /// ``invalidate()``.
    public func finishSendsAndInvalidate() async {
        await activeSends.finishSends()
        releaseResources()
    }

    private func releaseResources() {
        actions.removeAll()
        ownedTransport?.invalidate()
    }

    /// Whether ``invalidate()`` or ``finishSendsAndInvalidate()`` has been called.
    var isInvalidated: Bool {
        activeSends.isClosed
    }

    /// The number of sends in progress: started and not yet ended, queued ones included.
    public var activeRequestCount: Int {
        activeSends.count
    }

    /// The number of sends in progress, now and after every change, for example to
    /// drive a network-activity indicator. The stream ends when its consumer stops iterating
    /// (cancel its task), not when the network is invalidated: it then reports 0 and waits.
    public func activityUpdates() -> AsyncStream<Int> {
        activeSends.updates()
    }

    /// The queue completion handlers are called on: the configuration's
    /// ``NetworkConfiguration/completionQueue``.
    public var completionQueue: DispatchQueue? {
        configuration.completionQueue
    }
}
