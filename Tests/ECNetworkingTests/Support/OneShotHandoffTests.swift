import Dispatch
import Foundation
import Testing

@testable import ECNetworking

@Suite("OneShotHandoff: an outcome handed over exactly once, whoever comes first")
struct OneShotHandoffTests {
    /// A resource held for a wait, named so that a test can tell which one came back.
    private struct Resource: Equatable {
        var name: String
    }

    private typealias Handoff = OneShotHandoff<String, Int, [Resource]>

    // MARK: - Each step on its own

    @Test("a waiter that comes first gets nothing back, and the ending hands it out with the resources")
    func waiterFirst() throws {
        var handoff = Handoff(resources: [Resource(name: "task")])

        #expect(handoff.wait("waiter") == nil)
        #expect(!handoff.isFinished)
        let first = handoff.finish(1)
        let ending = try #require(first)

        #expect(ending.waiter == "waiter")
        #expect(ending.resources == [Resource(name: "task")])
        #expect(handoff.isFinished)
    }

    @Test("an outcome that comes first is kept for the waiter, and its ending names no waiter")
    func outcomeFirst() throws {
        var handoff = Handoff(resources: [Resource(name: "task")])

        let first = handoff.finish(7)
        let ending = try #require(first)
        #expect(ending.waiter == nil)
        #expect(ending.resources == [Resource(name: "task")])
        #expect(handoff.isFinished)

        #expect(handoff.wait("late waiter") == 7)
    }

    @Test("only the first ending counts, before and after the waiter came")
    func laterEndingsDoNothing() {
        var waitedFirst = Handoff(resources: [])
        _ = waitedFirst.wait("waiter")
        #expect(waitedFirst.finish(1) != nil)
        #expect(waitedFirst.finish(2) == nil)

        var endedFirst = Handoff(resources: [])
        #expect(endedFirst.finish(1) != nil)
        #expect(endedFirst.finish(2) == nil)
        #expect(endedFirst.wait("waiter") == 1)
        #expect(endedFirst.finish(3) == nil)
    }

    @Test("a waiter given at creation is handed out by the first ending")
    func waiterAtCreation() throws {
        var handoff = OneShotHandoff<String, Void, Void>(waiter: "completion")

        let first = handoff.finish()
        let ending = try #require(first)
        #expect(ending.waiter == "completion")
        #expect(handoff.finish() == nil)
    }

    @Test("resources added before the ending come back with it; after it, the change is refused and not made")
    func resourcesAddedOnTheWay() throws {
        var handoff = Handoff(resources: [])
        #expect(handoff.updateResources { $0.append(Resource(name: "task")) })
        _ = handoff.wait("waiter")
        #expect(handoff.updateResources { $0.append(Resource(name: "deadline")) })

        let first = handoff.finish(1)
        let ending = try #require(first)
        #expect(ending.resources == [Resource(name: "task"), Resource(name: "deadline")])

        var changed = false
        #expect(!handoff.updateResources { _ in changed = true })
        #expect(!changed)
    }

    // MARK: - Every order

    private enum Step: CaseIterable, CustomStringConvertible {
        case wait, finish, cancel

        var description: String {
            switch self {
            case .wait: "wait"
            case .finish: "finish"
            case .cancel: "cancel"
            }
        }
    }

    private static let cancelled = -1

    /// Every order of the three steps, so that each meeting of waiter, outcome and cancellation is seen.
    private static let orders: [[Step]] = {
        let steps = Step.allCases
        return steps.flatMap { first in
            steps.filter { $0 != first }.flatMap { second in
                steps.filter { $0 != first && $0 != second }.map { third in [first, second, third] }
            }
        }
    }()

    @Test(
        "in every order of wait, finish and cancel, the first ending reaches the waiter once, and resources come back once",
        arguments: orders)
    private func everyOrder(_ order: [Step]) {
        var handoff = Handoff(resources: [Resource(name: "task")])
        var delivered: [Int] = []
        var released: [[Resource]] = []
        for step in order {
            let outcome: Int
            switch step {
            case .wait:
                if let early = handoff.wait("waiter") { delivered.append(early) }
                continue
            case .finish: outcome = 1
            case .cancel: outcome = Self.cancelled
            }
            guard let ending = handoff.finish(outcome) else { continue }
            released.append(ending.resources)
            if ending.waiter != nil { delivered.append(outcome) }
        }

        let firstEnding = order.first { $0 != .wait }
        #expect(delivered == [firstEnding == .finish ? 1 : Self.cancelled])
        #expect(released == [[Resource(name: "task")]])
        #expect(handoff.isFinished)
    }

    // MARK: - Under contention

    /// An owner as the library's types are: the handoff in a `LockedState`, and the waiter called
    /// and the resources released after the lock is let go.
    private final class Owner: Sendable {
        private let handoff = LockedState(OneShotHandoff<@Sendable (Int) -> Void, Int, Int>(resources: 1))
        private let releases = LockedState(0)
        private let deliveries = LockedState<[Int]>([])
        private let outcomeCameFirst = LockedState(false)

        var released: Int { releases.withLock { $0 } }
        var delivered: [Int] { deliveries.withLock { $0 } }
        var waiterCameLast: Bool { outcomeCameFirst.withLock { $0 } }

        func wait() {
            let record: @Sendable (Int) -> Void = { outcome in self.deliveries.withLock { $0.append(outcome) } }
            guard let early = handoff.withLock({ $0.wait(record) }) else { return }
            outcomeCameFirst.withLock { $0 = true }
            record(early)
        }

        func finish(_ outcome: Int) {
            guard let ending = handoff.withLock({ $0.finish(outcome) }) else { return }
            releases.withLock { $0 += ending.resources }
            ending.waiter?(outcome)
        }
    }

    @Test("racing a waiter against two endings, each owner delivers exactly one outcome and releases once")
    func concurrentStress() async {
        // Enough rounds for both orders to happen many times, few enough that ThreadSanitizer does
        // not hold both cores for seconds and starve the timing-based tests that run beside this one.
        let rounds = 300
        let owners = (0..<rounds).map { _ in Owner() }
        // Three racers per owner, dispatched in an order that rotates from owner to owner, so that
        // the waiter is dispatched first for some owners and last for others.
        // From a thread of its own: `concurrentPerform` blocks the thread that calls it, which must
        // not be one of the concurrency runtime's (two on a 2-core machine).
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                DispatchQueue.concurrentPerform(iterations: rounds * 3) { index in
                    let owner = owners[index / 3]
                    switch (index + index / 3) % 3 {
                    case 0: owner.wait()
                    case 1: owner.finish(1)
                    default: owner.finish(Self.cancelled)
                    }
                }
                done.resume()
            }
        }

        for owner in owners {
            #expect(owner.delivered.count == 1)
            #expect(owner.delivered.allSatisfy { $0 == 1 || $0 == Self.cancelled })
            #expect(owner.released == 1)
        }
        let outcomeFirst = owners.filter(\.waiterCameLast).count
        #expect(outcomeFirst > 0, "no owner saw its outcome before its waiter")
        #expect(outcomeFirst < rounds, "no owner saw its waiter before its outcome")
    }
}
