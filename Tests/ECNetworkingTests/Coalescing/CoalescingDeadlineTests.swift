import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Coalescing: each caller keeps its own deadline and cancellation")
struct CoalescingDeadlineTests {
    private static let users = Data(#"[{"id":1,"name":"Ada"}]"#.utf8)

    private func listUsers(timeout: Duration) -> NetworkRequest {
        NetworkRequest(url: testBaseURL.appendingPathComponent("users"), timeout: timeout)
    }

    @Test("a follower with a longer timeout outlives the leader's timeout and gets the response")
    func followerOutlivesLeadersTimeout() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 1 }
        // Both callers join while a blocker holds the only slot, so both are in before any
        // deadline runs, however slowly the test's tasks start.
        let blocker = Task { try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("other"))) }
        try await waitUntil { session.heldCount == 1 }
        let leader = Task { try await network.send(listUsers(timeout: .milliseconds(500))) }
        try await waitUntil { network.coalescing.waiterCount == 2 }
        let follower = Task { try await network.send(listUsers(timeout: .seconds(30))) }
        try await waitUntil { network.coalescing.waiterCount == 3 }
        session.answer(path: "/v1/other")
        _ = try await blocker.value

        let leaderError = await #expect(throws: NetworkError.self) { try await leader.value }
        #expect(leaderError?.timeout == .milliseconds(500))
        #expect(session.heldCount == 1, "the wire request goes on for the follower")
        session.answer(body: Self.users)

        #expect(try await follower.value.body == Self.users)
        #expect(session.startedPaths == ["/v1/other", "/v1/users"])
        #expect(session.cancelledCount == 0)
    }

    @Test("a follower with a shorter timeout times out on its own; the leader gets the response")
    func followerTimesOutOnItsOwn() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session)

        let leader = Task { try await network.send(listUsers(timeout: .seconds(30))) }
        try await waitUntil { session.heldCount == 1 }
        let follower = Task { try await network.send(listUsers(timeout: .milliseconds(200))) }

        let followerError = await #expect(throws: NetworkError.self) { try await follower.value }
        #expect(followerError?.timeout == .milliseconds(200))
        #expect(network.coalescing.waiterCount == 1)
        session.answer(body: Self.users)

        #expect(try await leader.value.body == Self.users)
        #expect(session.startedPaths.count == 1)
        #expect(session.cancelledCount == 0)
    }

    @Test("when the leader is cancelled, the follower still gets the response from the same call")
    func leaderCancelled() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session)

        let leader = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.heldCount == 1 }
        let follower = Task { try await network.send(ListUsers()) }
        try await waitUntil { network.coalescing.waiterCount == 2 }
        leader.cancel()

        let leaderError = await #expect(throws: NetworkError.self) { try await leader.value }
        #expect(leaderError?.isCancellation == true)
        session.answer(body: Self.users)
        #expect(try await follower.value == [User(id: 1, name: "Ada")])
        #expect(session.startedPaths.count == 1)
        #expect(session.cancelledCount == 0)
    }

    @Test("a caller joining while the leader is being cancelled never ends cancelled itself")
    func joinRacesLeaderCancellation() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "Ada")], delay: .milliseconds(10)))
        let network = makeCoalescingNetwork(session: session)
        let users = testBaseURL.appendingPathComponent("users")
        let leader = LockedState<Task<NetworkResponse, any Error>?>(nil)
        let spin = LockedState<UInt64>(0)
        // The follower's will-begin action has another thread cancel the leader, then holds the
        // follower back a few microseconds, sweeping the moment it looks the call up and joins it.
        network.add(
            action: WillBegin { request in
                guard request.customProperties["follower"] as? Bool == true else { return request }
                let (task, microseconds) = (leader.withLock { $0 }, spin.withLock { $0 })
                DispatchQueue.global().async { task?.cancel() }
                let end = DispatchTime.now().uptimeNanoseconds + microseconds * 1000
                while DispatchTime.now().uptimeNanoseconds < end {}
                return request
            })

        for iteration in 0..<400 {
            spin.withLock { $0 = UInt64(iteration % 50) * 2 }
            let sent = session.recordedRequests.count
            let leaderTask = Task { try await network.send(NetworkRequest(url: users)) }
            leader.withLock { $0 = leaderTask }
            try await waitUntil { session.recordedRequests.count > sent }
            let follower = Task {
                try await network.send(NetworkRequest(url: users, customProperties: ["follower": true]))
            }
            do {
                _ = try await follower.value
            } catch {
                Issue.record("iteration \(iteration): the follower ended with \(error) although nobody cancelled it")
                return
            }
            _ = try? await leaderTask.value
        }
    }
}

extension NetworkError {
    /// The timeout of a ``NetworkError/timedOut(after:)``, or `nil` for any other error.
    fileprivate var timeout: Duration? {
        if case .timedOut(let after) = self { return after }
        return nil
    }
}
