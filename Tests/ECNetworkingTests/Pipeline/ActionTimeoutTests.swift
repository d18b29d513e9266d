import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Per-action time limit")
struct ActionTimeoutTests {
    @Test("an action that never finishes fails the send with actionTimedOut")
    func neverFinishes() async throws {
        struct Stuck: RequestWillBeginAction {
            func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
                // Ignores cancellation on purpose: waits on a continuation nobody resumes.
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                return request
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.actionTimeout = .milliseconds(100) }
        network.add(action: Stuck())
        let start = ContinuousClock.now

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a timeout")
        } catch NetworkError.actionTimedOut(let action, let after) {
            #expect(action.contains("Stuck"))
            #expect(after == .milliseconds(100))
        }
        #expect(ContinuousClock.now - start < .seconds(10), "a stuck action would hang forever")
        #expect(session.recordedRequests.isEmpty)
    }

    // A limit of no time failed every send as if its action had hung ("did not finish within -1.0
    // seconds"), naming the action rather than the setting.
    @Test(
        "a limit of zero or below fails the send with invalidRequest naming the setting, sending nothing",
        arguments: [Duration.zero, .seconds(-1)])
    func nonPositiveLimit(limit: Duration) async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.actionTimeout = limit }
        network.add(action: AddHeader(name: "X-A", value: "1"))

        await #expect {
            _ = try await network.send(ListUsers())
        } throws: { error in
            guard case .invalidRequest(let reason)? = error as? NetworkError else { return false }
            return reason.contains("actionTimeout")
        }
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("a quick action under a time limit works as usual, at both stages")
    func quickAction() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")]))
        let network = makeNetwork(session: session) { $0.actionTimeout = promptBound }
        network.add(
            action: WillBegin { request in
                var request = request
                request.headers["X-Timed"] = "yes"
                return request
            })
        network.add(action: Completed { _, response in .proceed(response) })

        let users = try await network.send(ListUsers())

        #expect(users.count == 1)
        #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "X-Timed") == "yes")
    }
}
