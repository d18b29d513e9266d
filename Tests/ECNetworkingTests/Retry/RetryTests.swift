import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Retries asked for by completed actions")
struct RetryTests {
    /// Retries on 503, as a minimal back-off action would.
    private struct RetryOnUnavailable: ResponseCompletedAction {
        func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
            response.statusCode == 503 ? .retry(after: .milliseconds(1)) : .proceed(response)
        }
    }

    @Test("a retry re-runs will-begin, so a refreshed credential is applied")
    func retryRerunsWillBegin() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "Ada")]))
        session.stub(with: [MockResponse(statusCode: 503), MockResponse(statusCode: 503)])
        let network = makeNetwork(session: session)
        let attempt = Counter()
        network.add(
            action: WillBegin { request in
                var request = request
                request.headers["Authorization"] = "Bearer \(attempt.increment())"
                return request
            })
        network.add(action: RetryOnUnavailable())

        let users = try await network.send(ListUsers())

        #expect(users.count == 1)
        #expect(
            session.recordedRequests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer 1", "Bearer 2", "Bearer 3",
            ])
    }

    @Test("retries are bounded by maximumRetries and the error says how many attempts were made")
    func retryBounded() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let network = makeNetwork(session: session) { $0.maximumRetries = 2 }
        network.add(action: RetryOnUnavailable())

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected the retry limit")
        } catch NetworkError.retryLimitReached(let attempts, let response) {
            #expect(attempts == 3)
            #expect(response.statusCode == 503)
        }
        #expect(session.recordedRequests.count == 3)
    }

    @Test("a completion-style action asks for a retry with RetryRequest")
    func completionStyleRetry() async throws {
        struct LegacyRetry: ResponseCompletedAction {
            func responseCompleted(
                request: NetworkRequest,
                response: NetworkResponse,
                completion: @escaping ResponseCompletion
            ) {
                if response.statusCode == 503 {
                    completion(.failure(RetryRequest()))
                } else {
                    completion(.success(response))
                }
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        session.stub(with: [MockResponse(statusCode: 503)])
        let network = makeNetwork(session: session)
        network.add(action: LegacyRetry())

        _ = try await network.send(ListUsers())

        #expect(session.recordedRequests.count == 2)
    }

    @Test("cancelling during a retry delay ends the send at once")
    func cancelDuringRetryDelay() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let network = makeNetwork(session: session)
        network.add(action: Completed { _, _ in .retry(after: longDelay) })
        let clock = ContinuousClock()
        let start = clock.now

        let task = Task { try await network.send(ListUsers()) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()

        await #expect(throws: NetworkError.self) { try await task.value }
        do { _ = try await task.value } catch { #expect((error as? NetworkError)?.isCancellation == true) }
        #expect(clock.now - start < promptBound)
    }
}
