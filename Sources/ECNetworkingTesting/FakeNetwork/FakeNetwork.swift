import ECNetworking
import Foundation

/// A ``ECNetworking/Network`` for the tests of code that uses a network (a view model, a service):
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
/// ``ECNetworking/NetworkError/cancelled``, also in the middle of a stub's delay.
///
/// Actions added with ``add(action:)`` are only kept, so a test can check they were installed,
/// unless the fake is created with `runsActions: true`; then they run at their stages around the
/// stubbed answer, to test an authentication or logging action without a transport.
public final class FakeNetwork: Network {
    /// The URL the typed requests are built with.
    public let baseURL: URL
    /// Whether added actions run at their stages; `false` by default, so a test of a view model
    /// is not affected by the actions its network was set up with.
    public let runsActions: Bool
    /// Decodes the bodies of ``FakeResponse/networkResponse(_:delay:)`` answers.
    public let decoder: JSONDecoder
    /// How many times the completed actions may ask for a retry within one send before it fails
    /// with ``ECNetworking/NetworkError/retryLimitReached(attempts:response:)``.
    public let maximumRetries: Int

    let state = LockedState(FakeNetworkState())

    /// Creates a fake with no stubs.
    ///
    /// - Parameters:
    ///   - baseURL: The URL requests are built with; only matters to tests that read the built URL.
    ///   - runsActions: Whether added actions run; see ``runsActions``.
    ///   - decoder: The decoder for raw responses, as a ``NetworkConfiguration`` would have.
    ///   - maximumRetries: The retry limit, 3 like ``NetworkConfiguration/maximumRetries``.
    public init(
        baseURL: URL = URL(string: "https://fake.invalid")!,
        runsActions: Bool = false,
        decoder: JSONDecoder = JSONDecoder(),
        maximumRetries: Int = 3
    ) {
        self.baseURL = baseURL
        self.runsActions = runsActions
        self.decoder = decoder
        self.maximumRetries = maximumRetries
    }

    /// Keeps an action, after those already added; it runs only when ``runsActions`` is `true`.
    public func add(action: any Action) {
        state.withLock { $0.actions.append(action) }
    }

    /// The actions added so far, in order, so a test can check that the code under test installed
    /// the ones it should.
    public var addedActions: [any Action] {
        state.withLock { $0.actions }
    }

    /// Records `request`, then answers from its type's stub: a value, the result of a closure, an
    /// error, or a raw response decoded for real.
    ///
    /// - Throws: ``FakeNetworkError/noStub(requestType:)`` when its type has no stub;
    ///   ``ECNetworking/NetworkError/cancelled`` when the send is cancelled; otherwise what the stub,
    ///   `buildRequest(with:)` or an action throws.
    public func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response {
        let requestType = ObjectIdentifier(R.self)
        let built: NetworkRequest
        do {
            var networkRequest = try request.buildRequest(with: baseURL)
            networkRequest.customProperties.merge(request.customProperties)
            built = networkRequest
        } catch {
            _ = state.withLock { $0.record(requestType: requestType, request: request, networkRequest: nil) }
            throw error
        }
        let recordID = state.withLock {
            $0.record(requestType: requestType, request: request, networkRequest: built)
        }
        return try await perform(
            built,
            recordID: recordID,
            answer: { _ in try await self.answer(request) },
            decode: { response in
                do {
                    return try request.response(from: response, with: self.decoder)
                } catch let error as NetworkError {
                    throw error
                } catch {
                    throw NetworkError.decodingFailed(error, response: response)
                }
            }
        )
    }

    /// Records `request`, then answers from the raw stub added with `stubNetworkRequests`; the
    /// response is validated against the request's acceptable status codes (200..<300 by default).
    ///
    /// - Throws: ``FakeNetworkError/noNetworkRequestStub(method:url:)`` when there is no raw stub;
    ///   ``ECNetworking/NetworkError/unacceptableStatusCode(_:)`` for a status the request does not accept.
    public func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse {
        let recordID = state.withLock { $0.record(requestType: nil, request: nil, networkRequest: request) }
        return try await perform(
            request,
            recordID: recordID,
            answer: { prepared in .response(try await self.answer(prepared)) },
            decode: { $0 }
        )
    }
}
