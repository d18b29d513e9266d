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
        fileprivate let identifier: UInt64
    }

    private struct Entry: Comparable {
        var deadline: DispatchTime
        var identifier: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline < rhs.deadline
        }
    }

    private struct State {
        var targets: [UInt64: any DeadlineTarget] = [:]
        /// Ordered by deadline; cancelled entries are dropped lazily when they surface.
        var heap = BinaryHeap<Entry>()
        var nextIdentifier: UInt64 = 0
        var armedDeadline: DispatchTime?

        /// Drops cancelled entries from the top, and rebuilds the heap when most of it is stale,
        /// so memory follows the live deadlines rather than every deadline ever set.
        mutating func dropStaleEntries() {
            while let top = heap.first, targets[top.identifier] == nil { heap.removeFirst() }
            if heap.count > 64 && heap.count > 2 * targets.count {
                heap.removeAll { targets[$0.identifier] == nil }
            }
        }
    }

    /// The scheduler all networks share.
    static let shared = DeadlineScheduler()

    private let state = LockedState(State())
    private let queue = DispatchQueue(label: "ECNetworking.DeadlineScheduler")
    private let timer: any DispatchSourceTimer
    private let willArm: (@Sendable (DispatchTime) -> Void)?

    /// Creates a scheduler; `willArm`, for tests, is called (under the lock) before each arming.
    init(willArm: (@Sendable (DispatchTime) -> Void)? = nil) {
        self.willArm = willArm
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    /// Tells `target` when `duration` has passed, unless cancelled first.
    func schedule(after duration: Duration, _ target: any DeadlineTarget) -> Token {
        let deadline = DispatchTime.now() + duration.seconds
        return state.withLock { state in
            state.nextIdentifier += 1
            let identifier = state.nextIdentifier
            state.targets[identifier] = target
            state.heap.insert(Entry(deadline: deadline, identifier: identifier))
            if state.armedDeadline.map({ deadline < $0 }) ?? true { arm(for: deadline, in: &state) }
            return Token(identifier: identifier)
        }
    }

    /// Forgets a deadline; its target is released and will not be told.
    func cancel(_ token: Token) {
        state.withLock { state in
            guard state.targets.removeValue(forKey: token.identifier) != nil else { return }
            state.dropStaleEntries()
        }
    }

    /// The number of deadlines pending.
    var pendingCount: Int { state.withLock { $0.targets.count } }

    private func fire() {
        let now = DispatchTime.now()
        let due = state.withLock { state -> [any DeadlineTarget] in
            var due: [any DeadlineTarget] = []
            while let top = state.heap.first, top.deadline <= now {
                state.heap.removeFirst()
                if let target = state.targets.removeValue(forKey: top.identifier) { due.append(target) }
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
    private func arm(for deadline: DispatchTime, in state: inout State) {
        state.armedDeadline = deadline
        willArm?(deadline)
        timer.schedule(deadline: deadline, leeway: .milliseconds(1))
    }
}
