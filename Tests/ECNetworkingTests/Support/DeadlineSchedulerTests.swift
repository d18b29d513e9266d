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
        // Far enough out that scheduling and cancelling them all ends before any is due on a loaded
        // machine (under ThreadSanitizer 30 ms was not always enough).
        let tokens = (0..<1_000).map {
            scheduler.schedule(after: .seconds(1), Target("cancelled \($0)", log: log))
        }
        for token in tokens { scheduler.cancel(token) }
        // Counted before the kept deadline is scheduled: a busy machine can hold this thread for
        // longer than the kept deadline's 40 ms between scheduling it and counting, and a count of
        // one would then find it already fired.
        #expect(scheduler.pendingCount == 0)
        _ = scheduler.schedule(after: .milliseconds(40), Target("kept", log: log))

        try await waitUntil { !log.all.isEmpty }
        #expect(scheduler.pendingCount == 0)
        // Past the cancelled deadlines, which must stay silent.
        try await Task.sleep(for: .milliseconds(1_100))
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

    /// Records how late it was told, against the instant it was due.
    private final class LatenessProbe: DeadlineTarget {
        let due: ContinuousClock.Instant
        let lateness: Log<Duration>

        init(due: ContinuousClock.Instant, lateness: Log<Duration>) {
            self.due = due
            self.lateness = lateness
        }

        func deadlinePassed() {
            lateness.append(.now - due)
        }
    }

    @Test("a thread that pauses before arming cannot leave the timer armed past an earlier deadline")
    func armingRace() async throws {
        let lateness = Log<Duration>()
        let schedulerBox = LockedState<DeadlineScheduler?>(nil)
        let armings = Counter()
        // The first arming (of the 5 s deadline) pauses while another thread schedules a 10 ms
        // deadline, for up to 50 ms: when arming happens under the lock, as it must, that thread
        // waits for the lock instead, and the pause ends by its time limit.
        let scheduler = DeadlineScheduler { _ in
            guard armings.increment() == 1, let scheduler = schedulerBox.withLock({ $0 }) else { return }
            let scheduled = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let probe = LatenessProbe(due: .now + .milliseconds(10), lateness: lateness)
                _ = scheduler.schedule(after: .milliseconds(10), probe)
                scheduled.signal()
            }
            _ = scheduled.wait(timeout: .now() + 0.05)
        }
        schedulerBox.withLock { $0 = scheduler }

        let token = scheduler.schedule(after: longDelay, LatenessProbe(due: .now + longDelay, lateness: Log()))

        try await waitUntil { lateness.all.count == 1 }
        // Left armed for the long deadline, the 10 ms one would be minutes late; the generous
        // bound keeps a loaded machine (or ThreadSanitizer) from failing a correct scheduler.
        #expect(lateness.all.allSatisfy { $0 < promptBound }, "late by \(lateness.all)")
        scheduler.cancel(token)
        schedulerBox.withLock { $0 = nil }
    }

    @Test("one thread scheduling 5 s deadlines, another 10 ms ones, 1,000 times: none fires a second late")
    func concurrentSchedulingStress() async throws {
        let scheduler = DeadlineScheduler()
        let lateness = Log<Duration>()
        let longTokens = Log<DeadlineScheduler.Token>()
        let threadsDone = Counter()
        Thread.detachNewThread {
            for _ in 0..<1_000 {
                longTokens.append(
                    scheduler.schedule(after: .seconds(5), LatenessProbe(due: .now + .seconds(5), lateness: Log())))
                usleep(UInt32.random(in: 0...2_000))
            }
            threadsDone.increment()
        }
        Thread.detachNewThread {
            for _ in 0..<1_000 {
                let probe = LatenessProbe(due: .now + .milliseconds(10), lateness: lateness)
                _ = scheduler.schedule(after: .milliseconds(10), probe)
                usleep(UInt32.random(in: 0...2_000))
            }
            threadsDone.increment()
        }

        try await waitUntil(timeout: .seconds(30)) { threadsDone.count == 2 && lateness.all.count == 1_000 }
        let latest = lateness.all.max() ?? .zero
        // Far below the 5 s of the long deadlines it must not wait behind, with room for a loaded machine.
        #expect(latest < .seconds(1), "a 10 ms deadline fired \(latest) late")
        for token in longTokens.all { scheduler.cancel(token) }
        #expect(scheduler.pendingCount == 0)
    }
}
