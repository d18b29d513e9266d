import Foundation

/// Something that must be told when its deadline passes.
protocol DeadlineTarget: AnyObject, Sendable {
    func deadlinePassed()
}

/// One timer for every deadline of the process's requests.
///
/// `DispatchQueue.asyncAfter` per request would leave each cancelled deadline pending in Dispatch
/// until it fires: with a 60 s timeout, a minute's worth of requests stays in memory. Here a
/// cancelled deadline is forgotten at once, and one timer is armed for the earliest deadline only.
final class DeadlineScheduler: @unchecked Sendable {
    // Safe because the mutable state is in `state` (behind its lock), and the timer is only ever
    // rescheduled with `schedule(deadline:leeway:)`, always under that lock (see `arm`).
    /// A scheduled deadline; pass it back to ``cancel(_:)``.
    struct Token: Sendable {
        fileprivate let slot: Int
        fileprivate let generation: UInt64
    }

    private struct Entry: Comparable {
        var deadline: SendMoment
        var slot: Int
        var generation: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline < rhs.deadline
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline == rhs.deadline && lhs.slot == rhs.slot && lhs.generation == rhs.generation
        }
    }

    /// Where one pending deadline's target waits. A slot is used again once its deadline fired or
    /// was cancelled, under a new generation, so a token or heap entry of its earlier use no longer
    /// matches it.
    private struct Slot {
        var target: (any DeadlineTarget)?
        var generation: UInt64
    }

    private struct State {
        // Targets in slots found by index, rather than in a dictionary by identifier: scheduling
        // and cancelling then hash nothing, and every attempt does both.
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var pendingCount = 0
        /// Ordered by deadline; cancelled entries are dropped lazily when they surface.
        var heap = BinaryHeap<Entry>()
        var nextGeneration: UInt64 = 0
        var armedDeadline: SendMoment?

        /// Whether `entry`'s deadline is still pending, neither fired nor cancelled.
        func isPending(_ entry: Entry) -> Bool {
            slots[entry.slot].generation == entry.generation && slots[entry.slot].target != nil
        }

        /// Empties the slot of a pending deadline and returns its target.
        mutating func release(slot: Int) -> (any DeadlineTarget)? {
            let target = slots[slot].target.take()
            freeSlots.append(slot)
            pendingCount -= 1
            return target
        }

        /// Drops cancelled entries from the top, and rebuilds the heap when most of it is stale,
        /// so memory follows the live deadlines rather than every deadline ever set.
        mutating func dropStaleEntries() {
            while let top = heap.first, !isPending(top) { heap.removeFirst() }
            if heap.count > 64 && heap.count > 2 * pendingCount {
                let state = self
                heap.removeAll { !state.isPending($0) }
            }
        }
    }

    /// The scheduler all networks share.
    static let shared = DeadlineScheduler()

    private let state = InlineLockedState(State())
    private let queue = DispatchQueue(label: "ECNetworking.DeadlineScheduler")
    private let timer: any DispatchSourceTimer
    private let willArm: (@Sendable (SendMoment) -> Void)?

    /// Creates a scheduler; `willArm`, for tests, is called (under the lock) before each arming.
    init(willArm: (@Sendable (SendMoment) -> Void)? = nil) {
        self.willArm = willArm
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    /// Tells `target` when `duration` has passed, unless cancelled first.
    func schedule(after duration: Duration, _ target: any DeadlineTarget) -> Token {
        schedule(at: SendClock.now + duration, target)
    }

    /// Tells `target` at `deadline`, unless cancelled first. For a caller that has just read the
    /// clock anyway, which then need not be read again.
    func schedule(at deadline: SendMoment, _ target: any DeadlineTarget) -> Token {
        state.withLock { state in
            state.nextGeneration += 1
            let generation = state.nextGeneration
            let slot: Int
            if let free = state.freeSlots.popLast() {
                slot = free
                state.slots[slot] = Slot(target: target, generation: generation)
            } else {
                slot = state.slots.count
                state.slots.append(Slot(target: target, generation: generation))
            }
            state.pendingCount += 1
            state.heap.insert(Entry(deadline: deadline, slot: slot, generation: generation))
            if state.armedDeadline.map({ deadline < $0 }) ?? true { arm(for: deadline, in: &state) }
            return Token(slot: slot, generation: generation)
        }
    }

    /// Forgets a deadline; its target is released and will not be told.
    func cancel(_ token: Token) {
        let target = state.withLock { state -> (any DeadlineTarget)? in
            guard state.slots[token.slot].generation == token.generation, state.slots[token.slot].target != nil
            else { return nil }
            let target = state.release(slot: token.slot)
            state.dropStaleEntries()
            return target
        }
        // Released after the lock: the target may be the last reference to an object whose
        // deinit does more.
        withExtendedLifetime(target) {}
    }

    /// The number of deadlines pending.
    var pendingCount: Int { state.withLock { $0.pendingCount } }

    private func fire() {
        let now = SendClock.now
        let due = state.withLock { state -> [any DeadlineTarget] in
            var due: [any DeadlineTarget] = []
            while let top = state.heap.first, top.deadline <= now {
                state.heap.removeFirst()
                if state.isPending(top), let target = state.release(slot: top.slot) { due.append(target) }
            }
            state.dropStaleEntries()
            state.armedDeadline = nil
            if let next = state.heap.first?.deadline { arm(for: next, in: &state) }
            return due
        }
        for target in due { target.deadlinePassed() }
    }

    /// Points the timer at `deadline`. Called with the lock held: were the timer armed after
    /// unlocking, a thread arming a later deadline could overwrite the earlier one just armed by
    /// another, and the earlier deadline would fire only when the later one does.
    private func arm(for deadline: SendMoment, in state: inout State) {
        state.armedDeadline = deadline
        willArm?(deadline)
        // Deadlines are kept on the continuous clock, which the send path reads anyway; the timer
        // wants a dispatch time, which only arming (for a new earliest deadline) converts to.
        let remaining = max(deadline - SendClock.now, .zero)
        timer.schedule(deadline: .now() + remaining.seconds, leeway: .milliseconds(1))
    }
}
