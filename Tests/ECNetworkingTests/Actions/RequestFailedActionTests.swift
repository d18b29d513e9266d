import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// One failure a ``RequestFailedAction`` was told about.
private struct Failure: Sendable {
    let request: NetworkRequest
    let error: any Error
}

/// Writes down every failure it is told about, under `name` in `events` too, for order checks.
private struct FailureRecorder: RequestFailedAction {
    let failures = Log<Failure>()
    var name = "recorder"
    var events = EventLog()

    func requestFailed(_ request: NetworkRequest, error: any Error) {
        failures.append(Failure(request: request, error: error))
        events.append("\(name).failed")
    }
}

private struct UsersRequest: Request {
    typealias Response = [User]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users"))
    }
}

private struct StoredUsersRequest: StorableRequest {
    typealias Response = [User]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users"))
    }
}

private struct Refused: Error, Equatable {}

/// A will-begin action that numbers each attempt in a header, so the request as last sent is known.
private func numberingAttempts() -> WillBegin {
    let attempts = Counter()
    return WillBegin { request in
        var request = request
        request.headers["X-Attempt"] = String(attempts.increment())
        return request
    }
}

@Suite("Actions: the failure stage sees every send that ended in an error, once", .timeLimit(.minutes(1)))
struct RequestFailedActionTests {
    private func network(
        answering response: MockResponse,
        configure: (inout NetworkConfiguration) -> Void = { _ in }
    ) -> (URLSessionNetwork, MockSession, FailureRecorder) {
        let (network, session) = makeStubbedNetwork(answering: response, configure: configure)
        let recorder = FailureRecorder()
        network.add(action: numberingAttempts())
        network.add(action: recorder)
        return (network, session, recorder)
    }

    @Test("a send that fails before it starts (a build that throws, a refused download destination) is not reported")
    func failureBeforeTheSend() async throws {
        struct UnbuildableRequest: Request {
            typealias Response = [User]
            func buildRequest(with baseURL: URL) throws -> NetworkRequest { throw Refused() }
        }
        let metrics = Log<RequestMetrics>()
        let (network, session, recorder) = network(answering: MockResponse(statusCode: 200)) { configuration in
            configuration.metricsHandler = { metrics.append($0) }
        }

        await #expect(throws: Refused.self) { try await network.send(UnbuildableRequest()) }
        let notAFile = try #require(URL(string: "https://example.com/report.pdf"))
        await #expect(throws: NetworkError.self) { try await network.download(UsersRequest(), to: notAFile) }

        #expect(recorder.failures.all.isEmpty)
        #expect(metrics.all.isEmpty)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("a transport failure is reported once, with the request as sent")
    func transportFailure() async throws {
        let (network, _, recorder) = network(answering: .failure(.notConnectedToInternet))

        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }

        let failures = recorder.failures.all
        try #require(failures.count == 1)
        guard case .transport(let urlError)? = failures[0].error as? NetworkError else {
            Issue.record("expected a transport error, got \(failures[0].error)")
            return
        }
        #expect(urlError.code == .notConnectedToInternet)
        #expect(failures[0].request.headers["X-Attempt"] == "1")
        #expect(failures[0].request.url.lastPathComponent == "users")
    }

    @Test("an unacceptable status is reported once, carrying the response")
    func statusFailure() async throws {
        let (network, _, recorder) = network(answering: MockResponse(statusCode: 404))

        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }

        let failures = recorder.failures.all
        try #require(failures.count == 1)
        #expect((failures[0].error as? NetworkError)?.response?.statusCode == 404)
    }

    @Test("a decoding failure is reported once, for typed and storage sends alike")
    func decodingFailure() async throws {
        let (network, _, recorder) = network(answering: MockResponse(data: Data("not json".utf8)))

        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }
        await #expect(throws: NetworkError.self) {
            try await network.send(StoredUsersRequest(), storage: InMemoryResponseStore(), policy: .networkOnly)
        }

        let failures = recorder.failures.all
        try #require(failures.count == 2)
        for failure in failures {
            guard case .decodingFailed(_, let response)? = failure.error as? NetworkError else {
                Issue.record("expected decodingFailed, got \(failure.error)")
                continue
            }
            #expect(response.statusCode == 200)
        }
        #expect(failures.map { $0.request.headers["X-Attempt"] } == ["1", "2"])
    }

    @Test("a storage send that falls back to the stored response reports the network's failure once")
    func storageFallback() async throws {
        let session = MockSession()
        session.stub(with: [MockResponse(jsonObject: [["id": 1, "name": "ada"]]), .failure(.notConnectedToInternet)])
        let network = makeNetwork(session: session)
        let recorder = FailureRecorder()
        network.add(action: recorder)
        let store = InMemoryResponseStore()

        _ = try await network.send(StoredUsersRequest(), storage: store, policy: .networkOnly)
        let fallback = try await network.send(
            StoredUsersRequest(), storage: store, policy: .networkFallingBackToStored)

        #expect(fallback.source == .store)
        let failures = recorder.failures.all
        try #require(failures.count == 1)
        guard case .transport? = failures[0].error as? NetworkError else {
            Issue.record("expected a transport error, got \(failures[0].error)")
            return
        }
    }

    @Test("a cancelled send is reported once as NetworkError.cancelled")
    func cancellation() async throws {
        let (network, session, recorder) = network(answering: MockResponse(statusCode: 200, delay: .seconds(30)))

        let send = Task { try await network.send(UsersRequest()) }
        try await waitUntil { session.recordedRequests.count == 1 }
        send.cancel()
        let thrown = await #expect(throws: NetworkError.self) { try await send.value }

        let failures = recorder.failures.all
        try #require(failures.count == 1)
        for error in [thrown, failures[0].error as? NetworkError] {
            guard case .cancelled? = error else {
                Issue.record("expected cancelled, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a send ended by invalidate() is still reported to the failure actions it started with")
    func invalidation() async throws {
        let (network, session, recorder) = network(answering: MockResponse(statusCode: 200, delay: .seconds(30)))

        let send = Task { try await network.send(UsersRequest()) }
        try await waitUntil { session.recordedRequests.count == 1 }
        network.invalidate()
        await #expect(throws: NetworkError.self) { try await send.value }

        #expect(recorder.failures.all.count == 1)
        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }
        #expect(recorder.failures.all.count == 1, "actions are dropped once the network is invalidated")
    }

    @Test("an error thrown by an action is reported unchanged, and nothing was sent")
    func actionThrew() async throws {
        let (network, session, recorder) = network(answering: MockResponse(statusCode: 200))
        network.add(action: WillBegin { _ in throw Refused() })

        await #expect(throws: Refused()) { try await network.send(UsersRequest()) }

        let failures = recorder.failures.all
        try #require(failures.count == 1)
        #expect(failures[0].error as? Refused == Refused())
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("retried sends are reported once, after the last attempt, with the request as last sent")
    func exactlyOnceAfterRetries() async throws {
        let (network, session, recorder) = network(answering: MockResponse(statusCode: 503)) {
            $0.retryPolicy = RetryPolicy(
                maximumAttempts: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        }

        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }

        #expect(session.recordedRequests.count == 3)
        let failures = recorder.failures.all
        try #require(failures.count == 1)
        #expect(failures[0].request.headers["X-Attempt"] == "3")
        guard case .retriesExhausted(let attempts, _)? = failures[0].error as? NetworkError else {
            Issue.record("expected retriesExhausted, got \(failures[0].error)")
            return
        }
        #expect(attempts == 3)
    }

    @Test("a success, raw or typed, is never reported; a failure after one is")
    func notOnSuccess() async throws {
        let session = MockSession()
        session.stub(.pathSuffix("users"), with: MockResponse(jsonObject: [["id": 1, "name": "ada"]]))
        session.stub(.pathSuffix("missing"), with: MockResponse(statusCode: 404))
        let network = makeNetwork(session: session)
        let recorder = FailureRecorder()
        network.add(action: recorder)

        _ = try await network.send(UsersRequest())
        _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("users")))
        #expect(recorder.failures.all.isEmpty)

        await #expect(throws: NetworkError.self) {
            try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("missing")))
        }
        #expect(recorder.failures.all.count == 1)
    }

    @Test("failure actions run in the order added, receive the real request, and the logging line still redacts")
    func orderAndRedaction() async throws {
        let lines = Log<String>()
        let (network, _) = makeStubbedNetwork(answering: MockResponse(statusCode: 500)) {
            $0.logging = true
            $0.loggingOptions.sink = LogSink { lines.append($0) }
        }
        let events = EventLog()
        let first = FailureRecorder(name: "first", events: events)
        let second = FailureRecorder(name: "second", events: events)
        network.add(action: AddHeader(name: "Authorization", value: "Bearer s3cret"))
        network.add(action: first)
        network.add(action: second)

        await #expect(throws: NetworkError.self) { try await network.send(UsersRequest()) }

        #expect(events.all == ["first.failed", "second.failed"])
        #expect(first.failures.all.first?.request.headers["Authorization"] == "Bearer s3cret")
        #expect(lines.all.contains { $0.hasPrefix("<-- failed") })
        #expect(!lines.all.joined().contains("s3cret"))
    }

    @Test("FakeNetwork running actions reports stubbed errors and decoding failures once, never successes")
    func fakeNetwork() async throws {
        let fake = FakeNetwork(runsActions: true)
        let recorder = FailureRecorder()
        fake.add(action: numberingAttempts())
        fake.add(action: recorder)

        fake.stub(UsersRequest.self, with: [User(id: 1, name: "ada")])
        _ = try await fake.send(UsersRequest())
        #expect(recorder.failures.all.isEmpty)

        fake.stub(UsersRequest.self, throwing: NetworkError.transport(URLError(.timedOut)))
        await #expect(throws: NetworkError.self) { try await fake.send(UsersRequest()) }
        fake.stub(UsersRequest.self, response: NetworkResponse(statusCode: 200, body: Data("nope".utf8)))
        await #expect(throws: NetworkError.self) { try await fake.send(UsersRequest()) }

        let failures = recorder.failures.all
        try #require(failures.count == 2)
        guard case .transport? = failures[0].error as? NetworkError,
            case .decodingFailed? = failures[1].error as? NetworkError
        else {
            Issue.record("unexpected errors: \(failures.map(\.error))")
            return
        }
        #expect(failures.map { $0.request.headers["X-Attempt"] } == ["2", "3"])
    }
}
