import ECNetworking
import Foundation

/// A `Network` for the tests of code that uses a network (a view model, a service):
/// it answers each request type from stubs, without building a URL session or encoding a body,
/// and records every request it was sent.
///
/// ```swift
/// let fake = FakeNetwork()
/// fake.stub(ListUsersRequest.self, with: [User(id: 1, name: "Ada")])
/// let service = UserService(network: fake)
/// try await service.reload()
/// #expect(fake.sentRequests(of: ListUsersRequest.self).map(\.online) == [true])
/// ```
///
/// A request type without a stub fails with ``FakeNetworkError/noStub(requestType:)``, never with
/// a made-up success. Cancelling a send (its task or its `Cancellable`) ends it with
/// `NetworkError.cancelled`, also in the middle of a stub's delay.
///
/// For partial mocking, a request type without a stub can go to a real network instead: every
/// such type with ``init(baseURL:runsActions:decoder:maximumRetries:passingUnstubbedRequestsTo:)``,
/// or chosen types with ``route(_:to:)``. A stub answers first, then a route, then the network
/// unstubbed requests pass to.
///
/// Like `HTTPNetwork`, the fake counts its sends in progress
/// (``activeRequestCount``, ``activityUpdates()``), cancels them in bulk without cancelling their
/// callers (``cancelAll()``), and can be invalidated; its storage sends read and fill a real
/// `ResponseStore`.
///
/// Actions added with ``add(action:)`` are only kept, so a test can check they were installed,
/// unless the fake is created with `runsActions: true`; then they run at their stages around the
/// stubbed answer, to test an authentication or logging action without a transport.
///
/// Each send runs the same stages as in `HTTPNetwork`, with the stub in
/// place of the transport: the ``configuration``'s default headers, action time limit, retry
/// policy, retry limit, acceptable status codes and metrics hook apply, and the status is
/// validated against the request as the will-begin actions left it. A fake created with
/// ``init(configuration:runsActions:passingUnstubbedRequestsTo:)`` and the configuration of the
/// app's real network behaves as it does; the settings of the transport itself (timeout,
/// concurrency limit, coalescing, redirects, response size, logging) have nothing to act on.
public final class FakeNetwork: Network, ActiveSendTracking {
    /// The configuration its sends run with; see the type's comment for what of it applies.
    public var configuration: NetworkConfiguration { runner.configuration }
    /// Whether added actions run at their stages; `false` by default, so a test of a view model
    /// is not affected by the actions its network was set up with.
    public let runsActions: Bool
    /// The queue the completion-handler `send(_:completion:)` calls back on: the configuration's
    /// `NetworkConfiguration.completionQueue`, as on a `HTTPNetwork` made with it (`nil`, the
    /// default, calls back on whichever thread the send finished on).
    public var completionQueue: DispatchQueue? { configuration.completionQueue }

    /// Where requests without a stub or a route go; `nil` fails them with
    /// ``FakeNetworkError/noStub(requestType:)``.
    public let unstubbedRequestsNetwork: (any Network)?

    let state = LockedState(FakeNetworkState())
    package let activeSends = ActiveSendRegistry()
    /// The stages of every stubbed send; its actions are those added, when ``runsActions`` is `true`.
    let runner: StageRunner

    /// Creates a fake with no stubs and a default configuration for `baseURL`: no default headers,
    /// retry policy or action time limit.
    ///
    /// - Parameters:
    ///   - baseURL: The URL requests are built with; only matters to tests that read the built URL.
    ///   - runsActions: Whether added actions run; see ``runsActions``.
    ///   - decoder: The decoder for raw responses, as a `NetworkConfiguration` would have.
    ///   - maximumRetries: The retry limit, 3 like `NetworkConfiguration.maximumRetries`.
    ///   - unstubbedRequestsNetwork: Where requests without a stub or a route go, through that
    ///     network's own actions and validation, for partial mocking: stub the endpoints a test
    ///     controls and let the others reach a real (or `HTTPNetwork` with a
    ///     `MockSession`) network. `nil`, the default, fails them with
    ///     ``FakeNetworkError/noStub(requestType:)``.
    public convenience init(
        baseURL: URL = URL(string: "https://fake.invalid")!,
        runsActions: Bool = false,
        decoder: JSONDecoder = JSONDecoder(),
        maximumRetries: Int = 3,
        passingUnstubbedRequestsTo unstubbedRequestsNetwork: (any Network)? = nil
    ) {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.decoder = decoder
        configuration.maximumRetries = maximumRetries
        self.init(
            configuration: configuration, runsActions: runsActions,
            passingUnstubbedRequestsTo: unstubbedRequestsNetwork)
    }

    /// Creates a fake with no stubs whose sends run with `configuration`, as those of a
    /// `HTTPNetwork` made with it do: pass the app's configuration to test
    /// with its default headers, retry policy and action time limit.
    ///
    /// - Parameters:
    ///   - configuration: The base URL, decoder and stage settings; see the type's comment.
    ///   - runsActions: Whether added actions run; see ``runsActions``.
    ///   - unstubbedRequestsNetwork: Where requests without a stub or a route go; see
    ///     ``init(baseURL:runsActions:decoder:maximumRetries:passingUnstubbedRequestsTo:)``.
    public init(
        configuration: NetworkConfiguration,
        runsActions: Bool = false,
        passingUnstubbedRequestsTo unstubbedRequestsNetwork: (any Network)? = nil
    ) {
        self.runsActions = runsActions
        self.unstubbedRequestsNetwork = unstubbedRequestsNetwork
        self.runner = StageRunner(configuration: configuration, actions: ActionRegistry())
    }

    /// Keeps an action, after those already added; it runs only when ``runsActions`` is `true`.
    public func add(action: any Action) {
        state.withLock { $0.actions.append(action) }
        if runsActions { runner.actions.add(action) }
    }

    /// The actions added so far, in order, so a test can check that the code under test installed
    /// the ones it should.
    public var addedActions: [any Action] {
        state.withLock { $0.actions }
    }

    /// Records `request`, then answers from its type's stub: a value, the result of a closure, an
    /// error, or a raw response decoded for real. A type without a stub goes to its route or to
    /// ``unstubbedRequestsNetwork``, whose own pipeline runs it.
    ///
    /// - Throws: ``FakeNetworkError/noStub(requestType:)`` when its type has no stub and nowhere to
    ///   go; `NetworkError.cancelled` when the send is cancelled;
    ///   `NetworkError.invalidated` after ``invalidate()``; otherwise what the stub,
    ///   `buildRequest(with:)`, an action or the network it went to throws.
    public func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response {
        if let network = passingNetwork(for: R.self) {
            return try await passingOn(R.self) {
                self.recordPassedOn(request)
                return try await network.send(request, priority: priority)
            }
        }
        return try await answerFromStubs(request).value
    }

    /// Records `request` and runs it against its type's stub, as a tracked send (or as part of
    /// one, a storage send's, as `registration` says); returns the value and, when the stub gave a
    /// raw response, that response (which a storage send keeps).
    func answerFromStubs<R: Request>(
        _ request: R, registration: SendRegistration? = nil
    ) async throws -> (value: R.Response, response: NetworkResponse?) {
        let requestType = ObjectIdentifier(R.self)
        let built: NetworkRequest
        do {
            built = try request.networkRequest(baseURL: configuration.baseURL)
        } catch {
            _ = state.withLock { $0.record(requestType: requestType, request: request, networkRequest: nil) }
            throw error
        }
        return try await perform(
            built,
            of: R.self,
            registration: registration ?? .registeredIn(activeSends),
            record: { $0.record(requestType: requestType, request: request, networkRequest: built) },
            answer: { sent in
                switch try await self.answer(request, sent: sent) {
                case .value(let value): .value((value, nil))
                case .response(let response): .response(response)
                }
            },
            decode: { response in
                (try request.decodedResponse(from: response, configuration: self.configuration), response)
            }
        )
    }

    /// Records `request`, then answers from the raw stub added with `stubNetworkRequests`, or
    /// passes it to ``unstubbedRequestsNetwork`` when there is no raw stub; the response is
    /// validated against the acceptable status codes of the request as the will-begin actions left
    /// it, or the configuration's (200..<300 by default).
    ///
    /// - Throws: ``FakeNetworkError/noNetworkRequestStub(method:url:)`` when there is no raw stub
    ///   and nowhere to pass it; `NetworkError.unacceptableStatusCode(_:)` for a
    ///   status the request does not accept.
    public func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse {
        if let network = unstubbedRequestsNetwork, state.withLock({ $0.networkRequestStub == nil }) {
            return try await passingOn(nil) {
                _ = self.state.withLock { $0.record(requestType: nil, request: nil, networkRequest: request) }
                return try await network.send(request, priority: priority)
            }
        }
        return try await perform(
            request,
            of: nil,
            record: { $0.record(requestType: nil, request: nil, networkRequest: request) },
            answer: { prepared in .response(try await self.answer(prepared)) },
            decode: { $0 }
        )
    }
}
