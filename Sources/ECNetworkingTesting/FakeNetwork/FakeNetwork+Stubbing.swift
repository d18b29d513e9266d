import ECNetworking
import Foundation

extension FakeNetwork {
    /// Answers every request of type `R` with `value`, optionally after `delay`.
    ///
    /// ```swift
    /// fake.stub(ListUsersRequest.self, with: [User(id: 1, name: "Ada")])
    /// ```
    ///
    /// A new stub for `R` replaces the one before it.
    public func stub<R: Request>(_ requestType: R.Type, with value: R.Response, delay: Duration = .zero) {
        stub(requestType, with: [.value(value, delay: delay)])
    }

    /// Answers every request of type `R` with what `answer` returns for it, so the answer can
    /// depend on the request (`GetUserRequest(id: 7)` answers user 7). An error it throws fails
    /// the send unchanged.
    ///
    /// ```swift
    /// fake.stub(GetUserRequest.self) { request in User(id: request.id, name: "User \(request.id)") }
    /// ```
    public func stub<R: Request>(
        _ requestType: R.Type,
        delay: Duration = .zero,
        answer: @escaping @Sendable (R) throws -> R.Response
    ) {
        stub(requestType, with: [.computed(delay: delay, answer)])
    }

    /// Fails every request of type `R` with `error`, unchanged, optionally after `delay`.
    public func stub<R: Request>(_ requestType: R.Type, throwing error: any Error, delay: Duration = .zero) {
        stub(requestType, with: [.error(error, delay: delay)])
    }

    /// Answers every request of type `R` with a raw response that the request validates and
    /// decodes for real, so its own `response(from:with:)` and an API's error statuses are tested.
    ///
    /// ```swift
    /// fake.stub(GetUserRequest.self, response: NetworkResponse(statusCode: 404, body: Data(#"{"error":"gone"}"#.utf8)))
    /// // the send fails with NetworkError.unacceptableStatusCode carrying that body
    /// ```
    public func stub<R: Request>(_ requestType: R.Type, response: NetworkResponse, delay: Duration = .zero) {
        stub(requestType, with: [.networkResponse(response, delay: delay)])
    }

    /// Answers every request of `requestType` with `stream`, whose body arrives in pieces: a
    /// stream, a download or an event subscription of the type reads it as it comes (with its
    /// pauses, and its failure part-way), a send gathers it first.
    public func stub<R: Request>(_ requestType: R.Type, streaming stream: FakeStream) {
        stub(requestType, with: [.streaming(stream)])
    }

    /// Answers every request of `requestType` with the ``FakeStream`` `script` makes for it as it
    /// goes out: a server of your own, which can serve a resumed download's `Range` or an event
    /// subscription's `Last-Event-ID`.
    ///
    /// ```swift
    /// fake.stub(FeedRequest.self) { request in
    ///     let after = Int(request.headers["Last-Event-ID"] ?? "0") ?? 0
    ///     return .events((after + 1...after + 2).map { ServerSentEvent(id: "\($0)", data: "tick \($0)") })
    /// }
    /// ```
    public func stub<R: Request>(
        _ requestType: R.Type, streaming script: @escaping @Sendable (NetworkRequest) throws -> FakeStream
    ) {
        stub(requestType, with: [.streaming(script)])
    }

    /// Answers every request of type `R` with `response`.
    public func stub<R: Request>(_ requestType: R.Type, with response: FakeResponse<R>) {
        stub(requestType, with: [response])
    }

    /// Answers requests of type `R` with `responses`, one per send (one per attempt when an action
    /// or the configuration's retry policy asks for a retry), in order. **The last one repeats** once the others are used up, so a
    /// fail-then-succeed sequence keeps succeeding. An empty list removes the stub for `R`.
    ///
    /// ```swift
    /// fake.stub(ListUsersRequest.self, with: [.error(URLError(.timedOut)), .value(users)])
    /// ```
    public func stub<R: Request>(_ requestType: R.Type, with responses: [FakeResponse<R>]) {
        state.withLock { state in
            state.stubs[ObjectIdentifier(requestType)] = responses.isEmpty ? nil : FakeStubQueue(responses)
        }
    }

    /// Answers every raw `NetworkRequest` send with `response`, optionally after `delay`.
    public func stubNetworkRequests(with response: NetworkResponse, delay: Duration = .zero) {
        stubNetworkRequests(delay: delay) { _ in response }
    }

    /// Answers every raw `NetworkRequest` send with what `answer` returns for the
    /// request (as the will-begin actions left it, when they run), or fails it with what `answer`
    /// throws. Switch on the request's path or method inside `answer` to answer several endpoints.
    public func stubNetworkRequests(
        delay: Duration = .zero,
        answer: @escaping @Sendable (NetworkRequest) throws -> NetworkResponse
    ) {
        state.withLock { $0.networkRequestStub = NetworkRequestStub(delay: delay, answer: answer) }
    }

    /// Removes every stub, route and record, for a test that reuses one fake across phases. The added
    /// actions stay, since the code under test added them and will not add them again.
    public func reset() {
        state.withLock { state in
            state.stubs = [:]
            state.networkRequestStub = nil
            state.routes = [:]
            state.records = []
        }
    }
}
