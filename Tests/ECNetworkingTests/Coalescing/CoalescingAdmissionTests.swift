import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Coalescing: callers that join a call take no concurrency slot")
struct CoalescingAdmissionTests {
    private static let users = Data(#"[{"id":1,"name":"Ada"}]"#.utf8)

    private struct Other: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("other"))
        }
    }

    @Test("with a limit of 1, five identical GETs wait together and make one call on one slot")
    func identicalCallersShareOneSlot() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 1 }

        let callers = (0..<5).map { _ in Task { try await network.send(ListUsers()) } }
        try await waitUntil { network.coalescing.waiterCount == 5 && session.heldCount == 1 }
        #expect(network.admission?.inFlight == 1)
        #expect(network.admission?.waitingCount == 0)
        session.answer(body: Self.users)

        for caller in callers { #expect(try await caller.value == [User(id: 1, name: "Ada")]) }
        #expect(session.startedPaths.count == 1)
        try await waitUntil { network.admission?.inFlight == 0 }
    }

    @Test("with a limit of 2, a different request runs beside three coalesced ones")
    func differentRequestGetsTheOtherSlot() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 2 }

        let callers = (0..<3).map { _ in Task { try await network.send(ListUsers()) } }
        try await waitUntil { network.coalescing.waiterCount == 3 && session.heldCount == 1 }
        let other = Task { try await network.send(Other()) }
        try await waitUntil { session.heldCount == 2 }
        session.answer(path: "/v1/other", statusCode: 204)
        try await other.value
        #expect(network.coalescing.waiterCount == 3, "the coalesced GET is still on the wire")

        session.answer(body: Self.users)
        for caller in callers { #expect(try await caller.value == [User(id: 1, name: "Ada")]) }
        try await waitUntil { network.admission?.inFlight == 0 }
    }

    @Test("when the caller waiting for the slot is cancelled, a joined caller takes its place in the queue")
    func leaderCancelledWhileQueued() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 1 }

        let blocker = Task { try await network.send(Other()) }
        try await waitUntil { session.heldCount == 1 }
        let leader = Task { try await network.send(ListUsers()) }
        let follower = Task { try await network.send(ListUsers()) }
        // The blocker is a member of its own call.
        try await waitUntil { network.coalescing.waiterCount == 3 }
        leader.cancel()
        let leaderError = await #expect(throws: NetworkError.self) { try await leader.value }
        #expect(leaderError?.isCancellation == true)

        session.answer(path: "/v1/other", statusCode: 204)
        try await blocker.value
        try await waitUntil { session.startedPaths.count == 2 }
        session.answer(body: Self.users)

        #expect(try await follower.value == [User(id: 1, name: "Ada")])
        #expect(session.startedPaths == ["/v1/other", "/v1/users"])
        try await waitUntil { network.admission?.inFlight == 0 }
    }

    @Test("when every caller leaves a call waiting for its slot, nothing is sent and no slot is held")
    func everyoneLeavesWhileQueued() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 1 }

        let blocker = Task { try await network.send(Other()) }
        try await waitUntil { session.heldCount == 1 }
        let callers = (0..<3).map { _ in Task { try await network.send(ListUsers()) } }
        try await waitUntil { network.coalescing.waiterCount == 4 }
        for caller in callers { caller.cancel() }
        for caller in callers { _ = try? await caller.value }

        session.answer(path: "/v1/other", statusCode: 204)
        try await blocker.value
        try await waitUntil { network.admission?.inFlight == 0 && network.coalescing.waiterCount == 0 }
        #expect(session.startedPaths == ["/v1/other"])
    }

    @Test("time spent waiting for a slot does not count toward a caller's timeout")
    func queueTimeIsNotOnTheClock() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session) { $0.maximumConcurrentRequests = 1 }
        let request = NetworkRequest(url: testBaseURL.appendingPathComponent("users"), timeout: .seconds(2))

        let blocker = Task { try await network.send(Other()) }
        try await waitUntil { session.heldCount == 1 }
        let leader = Task { try await network.send(request) }
        let follower = Task { try await network.send(request) }
        try await waitUntil { network.coalescing.waiterCount == 3 }
        try await Task.sleep(for: .milliseconds(2500))
        #expect(network.coalescing.waiterCount == 3, "neither caller timed out while queued")

        session.answer(path: "/v1/other", statusCode: 204)
        try await blocker.value
        try await waitUntil { session.heldCount == 1 }
        session.answer(path: "/v1/users", body: Self.users)
        #expect(try await leader.value.body == Self.users)
        #expect(try await follower.value.body == Self.users)
    }
}
