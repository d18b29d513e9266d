import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``Network`` that sends through a `URLSession` (or any ``Session``), running each request
/// through the action stages, then validating the response and decoding the typed result.
///
/// ```swift
/// let network = URLSessionNetwork(configuration: .init(baseURL: baseURL, logging: true))
/// network.add(action: AuthenticationAction(tokens: tokens))
/// let users = try await network.send(ListUsersRequest(online: true))
/// ```
///
/// The flow of one send: build the request; will-begin actions in order; wait for a slot under
/// ``NetworkConfiguration/maximumConcurrentRequests``; encode; began actions; the transport;
/// response-began actions; completed actions (which may ask for a retry, going back to will-begin);
/// validation of the status; decoding. It keeps one session for its whole life.
public final class URLSessionNetwork: Network {
    /// The configuration it was created with.
    public let configuration: NetworkConfiguration
    let session: any Session
    let actions: ActionRegistry
    let admission: AdmissionController?
    let loggingAction: LoggingAction?
    /// The configuration's ``NetworkConfiguration/sensitiveData``, prepared once.
    let redaction: Redaction
    let activeSends = ActiveSendRegistry()
    let coalescing = CoalescingRegistry()

    /// Creates a network that sends through `session`; by default a `URLSessionTransport` kept for
    /// the network's whole life (short-lived sessions crash in libcurl on Linux), which follows
    /// ``NetworkConfiguration/redirectPolicy`` (removing ``NetworkConfiguration/sensitiveData``'s
    /// headers across origins) and stops a body past
    /// ``NetworkConfiguration/maximumResponseSize`` as its bytes arrive.
    public init(configuration: NetworkConfiguration, session: (any Session)? = nil) {
        self.configuration = configuration
        self.session =
            session
            ?? URLSessionTransport(
                configuration: .default,
                redirectPolicy: configuration.redirectPolicy,
                maximumResponseSize: configuration.maximumResponseSize,
                sensitiveData: configuration.sensitiveData)
        let redaction = Redaction(configuration.sensitiveData)
        self.redaction = redaction
        Redaction.registerForDescriptions(configuration.sensitiveData)
        self.loggingAction =
            configuration.logging ? LoggingAction(options: configuration.loggingOptions, redaction: redaction) : nil
        self.actions = ActionRegistry(trailingAction: loggingAction)
        self.admission = configuration.maximumConcurrentRequests.map(AdmissionController.init(limit:))
    }

    /// Adds an action after those already added (and before the logging action) at every stage it
    /// conforms to. Requests already running pick it up from their next attempt.
    public func add(action: any Action) {
        actions.add(action)
    }

    /// Sends a request and returns its typed response.
    public func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response {
        var networkRequest = try request.buildRequest(with: configuration.baseURL)
        networkRequest.customProperties.merge(request.customProperties)
        return try await reportingMetrics(of: networkRequest) { context in
            let response = try await perform(
                networkRequest, requestType: ObjectIdentifier(R.self), priority: priority, context: &context)
            let decodingStart = context.clock.now
            let value = try decode(request, from: response)
            context.timings.decoding = context.elapsed(since: decodingStart)
            return value
        }
    }

    /// Sends a raw request and returns the validated response, without decoding.
    public func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse {
        try await reportingMetrics(of: request) { context in
            try await perform(request, requestType: nil, priority: priority, context: &context)
        }
    }

    /// Cancels every send in progress; each ends with ``NetworkError/cancelled``.
    public func cancelAll() {
        activeSends.cancel()
    }

    /// Cancels every send in progress of one request type; each ends with ``NetworkError/cancelled``.
    public func cancelAll<R: Request>(of requestType: R.Type) {
        activeSends.cancel(requestType: ObjectIdentifier(requestType))
    }

    /// The number of sends in progress: started and not yet ended, queued ones included.
    public var activeRequestCount: Int {
        activeSends.count
    }

    /// The number of sends in progress, now and after every change; the successor of a
    /// network-activity indicator. The stream ends when its consumer stops iterating.
    public func activityUpdates() -> AsyncStream<Int> {
        activeSends.updates()
    }

    /// The queue completion handlers are called on: the configuration's
    /// ``NetworkConfiguration/completionQueue``.
    public var completionQueue: DispatchQueue? {
        configuration.completionQueue
    }
}
