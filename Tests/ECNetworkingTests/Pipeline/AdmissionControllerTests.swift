import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("AdmissionController: cancelled waiters, aging, and an invalid limit")
struct AdmissionControllerTests {
    @Test("cancelled waiters leave the queue even while it never drains")
    func cancelledWaitersAreRemoved() async throws {
        let controller = AdmissionController(limit: 1)
        // Holds the only slot for the whole test, and one waiter stays queued behind it.
        try await controller.acquire(priority: .normal)
        let live = Task { try await controller.acquire(priority: .normal) }
        try await waitUntil { controller.waitingCount == 1 }

        let priorities: [RequestPriority] = [.low, .normal, .high]
        for _ in 0..<20 {
            let waiters = (0..<40).map { index in
                Task { try await controller.acquire(priority: priorities[index % 3]) }
            }
            try await waitUntil { controller.waitingCount == 41 }
            for waiter in waiters { waiter.cancel() }
            for waiter in waiters { _ = try? await waiter.value }
            #expect(controller.waitingCount == 1)
            #expect(
                controller.queuedEntryCount <= 64, "the queue holds \(controller.queuedEntryCount) entries for 1 waiter"
            )
        }

        live.cancel()
        _ = try? await live.value
        controller.release()
        #expect(controller.inFlight == 0)
    }

    @Test("a .low waiter is admitted after 64 admissions, however many .high requests keep arriving")
    func lowPriorityAges() async throws {
        let controller = AdmissionController(limit: 1)
        try await controller.acquire(priority: .normal)
        let admitted = EventLog()
        let low = Task {
            try await controller.acquire(priority: .low)
            admitted.append("low")
        }
        try await waitUntil { controller.waitingCount == 1 }

        var highs: [Task<Void, any Error>] = []
        for round in 0..<100 {
            highs.append(
                Task {
                    try await controller.acquire(priority: .high)
                    admitted.append("high")
                })
            try await waitUntil { controller.waitingCount == 2 }
            // The slot passes from the holder to the next waiter; the admitted one keeps it.
            controller.release()
            try await waitUntil { admitted.all.count == round + 1 }
            if admitted.all.last == "low" { break }
        }

        #expect(admitted.all.firstIndex(of: "low") == AdmissionController.admissionsPerPriorityStep * 2)
        for high in highs { high.cancel() }
        low.cancel()
    }

    @Test("maximumConcurrentRequests of 0 or less fails each send with a clear typed error")
    func invalidLimit() async throws {
        for limit in [0, -3] {
            let session = MockSession()
            session.stub(with: MockResponse(json: [User]()))
            let network = makeNetwork(session: session) { $0.maximumConcurrentRequests = limit }
            do {
                _ = try await network.send(ListUsers())
                Issue.record("a limit of \(limit) must not send")
            } catch NetworkError.invalidRequest(let reason) {
                #expect(reason.contains("maximumConcurrentRequests"))
                #expect(reason.contains("\(limit)"))
            }
            #expect(session.recordedRequests.isEmpty)
        }
    }
}
