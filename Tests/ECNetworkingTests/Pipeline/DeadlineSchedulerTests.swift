import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("DeadlineScheduler")
struct DeadlineSchedulerTests {
    private final class Target: DeadlineTarget, @unchecked Sendable {
        // Safe because `firedAt` is only touched while `lock` is held.
        private let lock = NSLock()
        private var firedAt: ContinuousClock.Instant?
        let name: String
        let log: EventLog

        init(_ name: String, log: EventLog) {
            self.name = name
            self.log = log
        }

        func deadlinePassed() {
            lock.withLock { firedAt = .now }
            log.append(name)
        }
    }

    @Test("deadlines fire in deadline order, whatever order they were set in")
    func order() async throws {
        let scheduler = DeadlineScheduler()
        let log = EventLog()
        let late = Target("late", log: log)
        let early = Target("early", log: log)
        _ = scheduler.schedule(after: .milliseconds(60), late)
        _ = scheduler.schedule(after: .milliseconds(20), early)

        try await waitUntil { log.all.count == 2 }

        #expect(log.all == ["early", "late"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a cancelled deadline never fires and is forgotten at once")
    func cancellation() async throws {
        let scheduler = DeadlineScheduler()
        let log = EventLog()
        let tokens = (0..<1_000).map {
            scheduler.schedule(after: .milliseconds(30), Target("cancelled \($0)", log: log))
        }
        for token in tokens { scheduler.cancel(token) }
        _ = scheduler.schedule(after: .milliseconds(40), Target("kept", log: log))

        #expect(scheduler.pendingCount == 1)
        try await waitUntil { log.all.count == 1 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.all == ["kept"])
    }

    @Test("sends that finish before their timeout leave no deadline behind")
    func noLeftoverDeadlines() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session) { $0.timeout = .seconds(60) }
        let before = DeadlineScheduler.shared.pendingCount
        for _ in 0..<200 { _ = try await network.send(ListUsers()) }
        // Other tests running alongside may hold a few deadlines; 200 left behind would show.
        #expect(DeadlineScheduler.shared.pendingCount < before + 100, "finished sends must cancel their deadlines")
    }
}
