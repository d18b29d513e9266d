/// Lets at most `limit` requests onto the wire at once; the rest wait, highest priority first and
/// in order of arrival within a priority. A waiting request can be cancelled.
///
/// **Aging.** A waiting request's priority rises by one step (100, the gap between `.low`,
/// `.normal` and `.high`) for every ``admissionsPerPriorityStep`` requests admitted while it waits,
/// so a steady stream of `.high` requests cannot starve a `.low` one: after twice that many
/// admissions it goes before every `.high` request that arrives later. The rise is linear in the
/// number of admissions, so two waiters keep their relative order as time passes and the queue
/// stays a plain heap, ordered by a key fixed when each request arrives.
final class AdmissionController: Sendable {
    /// How many admissions raise a waiting request's priority by one step.
    static let admissionsPerPriorityStep = 32
    /// The gap between the named priorities, which a waiter climbs one at a time.
    private static let priorityStep = 100

    private struct Entry: Comparable {
        /// The priority, scaled by ``admissionsPerPriorityStep``, minus the aging already owed to
        /// the requests admitted before it arrived; see the type's documentation.
        var key: Int
        var sequence: UInt64

        /// Whether `lhs` should leave the queue before `rhs`: a higher key, then an earlier arrival.
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.key != rhs.key ? lhs.key > rhs.key : lhs.sequence < rhs.sequence
        }
    }

    private struct State {
        var inFlight = 0
        var nextSequence: UInt64 = 0
        /// Every request admitted so far, whether at once or from the queue; the clock of aging.
        var admissions = 0
        /// Cancelling a waiter leaves its entry behind (O(1)); the entry is dropped when it reaches
        /// the top, or when stale entries outnumber live ones and the heap is rebuilt, so the
        /// heap's size follows the live waiters.
        var heap = BinaryHeap<Entry>()
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]

        mutating func popWaiter() -> CheckedContinuation<Void, any Error>? {
            while let top = heap.removeFirst() {
                if let waiter = waiters.removeValue(forKey: top.sequence) { return waiter }
            }
            return nil
        }

        /// Removes a cancelled waiter, rebuilding the heap without stale entries once they are the
        /// majority: amortised O(1) per cancellation.
        mutating func removeWaiter(_ sequence: UInt64) -> CheckedContinuation<Void, any Error>? {
            guard let waiter = waiters.removeValue(forKey: sequence) else { return nil }
            if heap.count > 32 && heap.count > 2 * waiters.count {
                heap.removeAll { waiters[$0.sequence] == nil }
            }
            return waiter
        }
    }

    let limit: Int
    private let state = InlineLockedState(State())

    /// Creates a controller; a `limit` below 1 admits nothing, and every ``acquire(priority:)``
    /// fails with ``NetworkError/invalidRequest(reason:)`` saying so.
    init(limit: Int) {
        self.limit = limit
    }

    /// The number of requests holding a slot.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// The number of requests waiting for a slot.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// The number of entries in the queue's heap, cancelled ones not yet dropped included.
    var queuedEntryCount: Int { state.withLock { $0.heap.count } }

    /// Waits for a slot. Every successful call must be paired with one ``release()``.
    ///
    /// - Throws: ``NetworkError/cancelled`` when the task is cancelled while waiting;
    ///   ``NetworkError/invalidRequest(reason:)`` when the limit is below 1.
    func acquire(priority: RequestPriority) async throws {
        // Authentication lets a login sent from inside a refresh leave the queue first.
        let priority = RefreshMarker.priority(for: priority)
        guard limit > 0 else {
            throw NetworkError.invalidRequest(
                reason:
                    "NetworkConfiguration.maximumConcurrentRequests is \(limit); it must be at least 1, or nil for no limit"
            )
        }
        let entry: Entry? = state.withLock { state in
            if state.inFlight < limit && state.waiters.isEmpty {
                state.inFlight += 1
                state.admissions += 1
                return nil
            }
            defer { state.nextSequence += 1 }
            return Entry(key: Self.agingKey(priority, arrivingAfter: state.admissions), sequence: state.nextSequence)
        }
        guard let entry else { return }
        try await SendCancellation.withCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted: Bool? = state.withLock { state in
                    // The flag is set before `onCancel` runs, so a cancellation that came first is seen here.
                    if SendCancellation.isCancelled { return false }
                    if state.inFlight < limit && state.waiters.isEmpty {
                        state.inFlight += 1
                        state.admissions += 1
                        return true
                    }
                    state.waiters[entry.sequence] = continuation
                    state.heap.insert(entry)
                    return nil
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: NetworkError.cancelled)
                case nil: break
                }
            }
        } onCancel: { [self] in
            state.withLock { $0.removeWaiter(entry.sequence) }?
                .resume(throwing: NetworkError.cancelled)
        }
    }

    /// Gives the slot to the next waiter, or frees it.
    func release() {
        let next = state.withLock { state in
            if let waiter = state.popWaiter() {
                state.admissions += 1
                return Optional(waiter)
            }
            state.inFlight -= 1
            return nil
        }
        next?.resume()
    }

    /// The heap key of a request of `priority` arriving after `admissions` admissions: its priority
    /// in units of 1/``admissionsPerPriorityStep`` of a step, less one step per
    /// ``admissionsPerPriorityStep`` admissions before it arrived. Comparing two keys compares the
    /// two requests' aged priorities at any later moment.
    private static func agingKey(_ priority: RequestPriority, arrivingAfter admissions: Int) -> Int {
        // Clamped so that any priority a caller may invent cannot overflow the scaled key.
        let priority = min(max(priority.rawValue, -(1 << 40)), 1 << 40)
        return priority * admissionsPerPriorityStep - admissions * priorityStep
    }
}
