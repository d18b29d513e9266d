import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("maximumConcurrentRequests and priorities")
struct ConcurrencyLimitTests {
    @Test("200 sends never exceed the limit of 4 on the wire, and all complete")
    func limitHolds() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: .milliseconds(2)))
        let network = makeNetwork(session: session) { configuration in
            configuration.maximumConcurrentRequests = 4
            // Identical GETs would share one transport call; this test wants each on the wire.
            configuration.coalescesIdenticalRequests = false
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask { _ = try await network.send(ListUsers()) }
            }
            try await group.waitForAll()
        }

        #expect(session.recordedRequests.count == 200)
        #expect(session.maximumConcurrentRequests <= 4)
        #expect(session.maximumConcurrentRequests >= 2, "the limit should still allow parallelism")
    }

    @Test("when a slot frees, the highest priority leaves the queue first, FIFO within a priority")
    func priorityOrder() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.pathSuffix("blocker"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session) { $0.maximumConcurrentRequests = 1 }
        struct Tagged: Request {
            typealias Response = Void
            let tag: String
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL.appendingPathComponent(tag))
            }
        }
        let blocker = Task { try await network.send(Tagged(tag: "blocker")) }
        try await waitUntil { session.recordedRequests.count == 1 }

        var tasks: [Task<Void, any Error>] = []
        let queued: [(String, RequestPriority)] = [
            ("low", .low), ("normal-1", .normal), ("high-1", .high), ("normal-2", .normal), ("high-2", .high),
        ]
        for (index, (tag, priority)) in queued.enumerated() {
            tasks.append(Task { try await network.send(Tagged(tag: tag), priority: priority) })
            // Each send must be in the queue before the next, so that arrival order is defined.
            try await waitUntil { network.admission?.waitingCount == index + 1 }
        }
        blocker.cancel()
        _ = try? await blocker.value
        for task in tasks { try await task.value }

        let order = session.recordedRequests.dropFirst().compactMap { $0.url?.lastPathComponent }
        #expect(order == ["high-1", "high-2", "normal-1", "normal-2", "low"])
    }

    @Test("the completion-handler send honours the limit too, and is called once per send")
    func completionSendsUnderLimit() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: .milliseconds(1)))
        let network = makeNetwork(session: session) { configuration in
            configuration.maximumConcurrentRequests = 2
            configuration.coalescesIdenticalRequests = false
        }
        let calls = Counter()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Counter()
            for _ in 0..<50 {
                network.send(ListUsers(), priority: .normal) { _ in
                    calls.increment()
                    if remaining.increment() == 50 { done.resume() }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        #expect(calls.count == 50)
        #expect(session.maximumConcurrentRequests <= 2)
    }
}
