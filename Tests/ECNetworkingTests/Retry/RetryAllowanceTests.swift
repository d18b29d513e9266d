import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// One rule bounds every retry of a send: at most `maximumRetries` of them, whoever asks.
@Suite("One retry allowance for completed actions and the retry policy")
struct RetryAllowanceTests {
    /// Asks for a retry on 401, as a token-refreshing action would.
    private struct RetryOnUnauthorized: ResponseCompletedAction {
        func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
            response.statusCode == 401 ? .retry : .proceed(response)
        }
    }

    private static func policy(attempts: Int) -> RetryPolicy {
        RetryPolicy(maximumAttempts: attempts, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
    }

    @Test("the policy's retries stop at maximumRetries even when its own maximumAttempts allows more")
    func policyBoundedBySendAllowance() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let metrics = Log<RequestMetrics>()
        let network = makeNetwork(session: session) {
            $0.maximumRetries = 2
            $0.retryPolicy = Self.policy(attempts: 10)
            $0.metricsHandler = { metrics.append($0) }
        }

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected the retries to run out")
        } catch NetworkError.retriesExhausted(let attempts, let lastError) {
            #expect(attempts == 3)
            #expect((lastError as? NetworkError)?.statusCode == 503)
        }
        #expect(session.recordedRequests.count == 3)
        #expect(metrics.all.last?.retriedBy == [.retryPolicy, .retryPolicy])
    }

    @Test("retries asked for by an action and by the policy draw on the same allowance, and metrics say who asked")
    func sharedAllowance() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        session.stub(with: [MockResponse(statusCode: 401)])
        let metrics = Log<RequestMetrics>()
        let network = makeNetwork(session: session) {
            $0.maximumRetries = 2
            $0.retryPolicy = Self.policy(attempts: 10)
            $0.metricsHandler = { metrics.append($0) }
        }
        network.add(action: RetryOnUnauthorized())

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected the retries to run out")
        } catch NetworkError.retriesExhausted(let attempts, _) {
            #expect(attempts == 3)
        }
        #expect(session.recordedRequests.count == 3)
        #expect(metrics.all.last?.retriedBy == [.completedAction("RetryOnUnauthorized"), .retryPolicy])
    }

    @Test("an action's retry after the policy's retries is refused once the allowance is spent")
    func actionAfterPolicy() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 401))
        session.stub(with: [MockResponse(statusCode: 503)])
        let network = makeNetwork(session: session) {
            $0.maximumRetries = 1
            $0.retryPolicy = Self.policy(attempts: 10)
        }
        network.add(action: RetryOnUnauthorized())

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected the retry limit")
        } catch NetworkError.retryLimitReached(let attempts, let response) {
            #expect(attempts == 2)
            #expect(response.statusCode == 401)
        }
        #expect(session.recordedRequests.count == 2)
    }

    @Test("with no retries allowed the policy's failure reaches the caller as it is")
    func noRetriesAllowed() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let network = makeNetwork(session: session) {
            $0.maximumRetries = 0
            $0.retryPolicy = Self.policy(attempts: 10)
        }

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a failure")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 503)
        }
        #expect(session.recordedRequests.count == 1)
    }

    @Test("a send without retries reports nobody asking")
    func noRetries() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let metrics = Log<RequestMetrics>()
        let network = makeNetwork(session: session) { $0.metricsHandler = { metrics.append($0) } }

        _ = try await network.send(ListUsers())

        #expect(metrics.all.last?.retriedBy == [])
        #expect(metrics.all.last?.attempts == 1)
    }
}
