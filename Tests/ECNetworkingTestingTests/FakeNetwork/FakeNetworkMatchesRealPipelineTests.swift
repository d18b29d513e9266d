import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One scenario sent through `URLSessionNetwork` with a `MockSession` and through `FakeNetwork`,
/// which must agree: a fake that ran its own copy of the stages would let a test pass that the
/// shipped pipeline fails.
@Suite("FakeNetwork runs the same stages as URLSessionNetwork")
struct FakeNetworkMatchesRealPipelineTests {
    /// What a test can observe of one send from outside.
    struct Outcome: Equatable, CustomStringConvertible {
        var result: String
        /// The headers of each attempt as the began actions saw them, `name: value`, sorted.
        var headersSent: [[String]]
        var attempts: Int

        var description: String { "\(result), \(attempts) attempt(s), headers \(headersSent)" }
    }

    /// The server's answers, in order, one per attempt.
    enum Answer {
        case status(Int)
        case book(Book)
    }

    /// Default headers, a retry policy without back-off, and an action time limit. A quick action
    /// can miss a short limit when the machine is loaded, so only the test of the limit uses one.
    private static func configuration(actionTimeout: Duration) -> NetworkConfiguration {
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.defaultHeaders = ["Accept": "application/json", "X-Client": "equivalence"]
        configuration.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: .zero, jitter: 0)
        configuration.actionTimeout = actionTimeout
        return configuration
    }

    /// The actions both networks get: a will-begin action that accepts only 200 (narrower than
    /// the configuration's 2xx), optionally one that never returns, and a began action that
    /// records what goes on the wire.
    private static func actions(hanging: Bool, headers: Log<[String]>) -> [any Action] {
        var actions: [any Action] = [
            WillBegin { request in
                var request = request
                request.acceptableStatusCodes = [200]
                return request
            }
        ]
        if hanging {
            actions.append(
                WillBegin { request in
                    try await Task.sleep(for: .seconds(60))
                    return request
                })
        }
        actions.append(
            Began { request in
                headers.append(request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted())
            })
        return actions
    }

    private static func outcome(of send: () async throws -> Book) async -> Result<Book, any Error> {
        do { return .success(try await send()) } catch { return .failure(error) }
    }

    private static func describe(_ result: Result<Book, any Error>) -> String {
        switch result {
        case .success(let book): "book \(book.id) \(book.title)"
        case .failure(let error): describe(error)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case NetworkError.unacceptableStatusCode(let response): "unacceptable \(response.statusCode)"
        case NetworkError.retriesExhausted(let attempts, let last): "exhausted after \(attempts): \(describe(last))"
        case NetworkError.actionTimedOut(let action, let limit): "\(action) timed out after \(limit)"
        case NetworkError.cancelled: "cancelled"
        default: "other error \(error)"
        }
    }

    private static func sendThroughRealNetwork(
        _ answers: [Answer], hanging: Bool, actionTimeout: Duration
    ) async throws -> Outcome {
        let session = MockSession()
        session.stub(
            with: try answers.map { answer in
                switch answer {
                case .status(let code): MockResponse(statusCode: code)
                case .book(let book): MockResponse(statusCode: 200, data: try JSONEncoder().encode(book))
                }
            })
        let network = URLSessionNetwork(configuration: configuration(actionTimeout: actionTimeout), session: session)
        let headers = Log<[String]>()
        for action in actions(hanging: hanging, headers: headers) { network.add(action: action) }
        let result = await outcome(of: { try await network.send(GetBookRequest(id: 1)) })
        // The began actions saw what the session was asked to send.
        #expect(
            session.recordedRequests.map { request in
                (request.allHTTPHeaderFields ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
            } == headers.all)
        return Outcome(result: describe(result), headersSent: headers.all, attempts: headers.all.count)
    }

    private static func sendThroughFakeNetwork(
        _ answers: [Answer], hanging: Bool, actionTimeout: Duration
    ) async throws -> Outcome {
        let fake = FakeNetwork(configuration: configuration(actionTimeout: actionTimeout), runsActions: true)
        fake.stub(
            GetBookRequest.self,
            with: try answers.map { answer in
                switch answer {
                case .status(let code): .networkResponse(NetworkResponse(statusCode: code))
                case .book(let book):
                    .networkResponse(NetworkResponse(statusCode: 200, body: try JSONEncoder().encode(book)))
                }
            })
        let headers = Log<[String]>()
        for action in actions(hanging: hanging, headers: headers) { fake.add(action: action) }
        let result = await outcome(of: { try await fake.send(GetBookRequest(id: 1)) })
        return Outcome(result: describe(result), headersSent: headers.all, attempts: headers.all.count)
    }

    private static let defaultHeaders = ["accept: application/json", "x-client: equivalence"]

    @Test(
        "the same answers give the same outcome through both networks",
        arguments: [
            // A retryable status, then a success: the retry policy retries, default headers go out.
            ([Answer.status(503), .book(Book(id: 1, title: "Dune"))], "book 1 Dune", 2),
            // A 2xx the configuration accepts but the will-begin action, on the request as sent, does not.
            ([.status(503), .status(203)], "unacceptable 203", 2),
            // The policy's attempts run out.
            ([.status(503), .status(503), .status(503)], "exhausted after 3: unacceptable 503", 3),
        ])
    func sameOutcome(answers: [Answer], expected: String, attempts: Int) async throws {
        let real = try await Self.sendThroughRealNetwork(answers, hanging: false, actionTimeout: .seconds(60))
        let fake = try await Self.sendThroughFakeNetwork(answers, hanging: false, actionTimeout: .seconds(60))
        #expect(
            real
                == Outcome(
                    result: expected, headersSent: Array(repeating: Self.defaultHeaders, count: attempts),
                    attempts: attempts))
        #expect(fake == real)
    }

    @Test("an action past the time limit fails both sends the same way, before anything is sent")
    func actionTimeLimit() async throws {
        // Under load the quick action may be the one that misses the limit; both are `WillBegin`s,
        // so the outcome is the same either way.
        let answers = [Answer.book(Book(id: 1, title: "Dune"))]
        let real = try await Self.sendThroughRealNetwork(answers, hanging: true, actionTimeout: .seconds(1))
        let fake = try await Self.sendThroughFakeNetwork(answers, hanging: true, actionTimeout: .seconds(1))
        #expect(real.result.contains("timed out after"))
        #expect(real.attempts == 0)
        #expect(fake == real)
    }
    @Test("cancelling a send during the wire wait reaches the failure actions the same way")
    func cancellationReachesFailureActions() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 200, delay: .seconds(120)))
        let network = URLSessionNetwork(
            configuration: Self.configuration(actionTimeout: .seconds(60)), session: session)
        let fake = FakeNetwork(configuration: Self.configuration(actionTimeout: .seconds(60)), runsActions: true)
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .seconds(120))

        var seen: [[String]] = []
        for subject in [network, fake] as [any Network] {
            let failures = Log<String>()
            subject.add(action: Failed { _, error in failures.append(Self.describe(error)) })
            let send = Task { try await subject.send(GetBookRequest(id: 1)) }
            try await waitUntil(timeout: .seconds(30)) { subject.activeRequestCount == 1 }
            send.cancel()
            let result = await send.result
            seen.append(failures.all + [Self.describe(result)])
        }
        #expect(seen[0] == ["cancelled", "cancelled"])
        #expect(seen[1] == seen[0])
    }
}

/// A failure action made from a closure.
private struct Failed: RequestFailedAction {
    let body: @Sendable (NetworkRequest, any Error) -> Void

    init(_ body: @escaping @Sendable (NetworkRequest, any Error) -> Void) {
        self.body = body
    }

    func requestFailed(_ request: NetworkRequest, error: any Error) {
        body(request, error)
    }
}

/// A began action made from a closure.
private struct Began: RequestBeganAction {
    let body: @Sendable (NetworkRequest) -> Void

    init(_ body: @escaping @Sendable (NetworkRequest) -> Void) {
        self.body = body
    }

    func requestBegan(_ request: NetworkRequest) {
        body(request)
    }
}
