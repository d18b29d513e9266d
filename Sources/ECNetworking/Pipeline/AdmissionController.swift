/// Lets at most `limit` requests onto the wire at once; the rest wait, highest priority first and
/// in order of arrival within a priority. A waiting request can be cancelled.
final class AdmissionController: Sendable {
    private struct Entry {
        var priority: Int
        var sequence: UInt64
        /// Whether this entry should leave the queue before `other`.
        func precedes(_ other: Entry) -> Bool {
            priority != other.priority ? priority > other.priority : sequence < other.sequence
        }
    }

    private struct State {
        var inFlight = 0
        var nextSequence: UInt64 = 0
        /// A binary heap ordered by `precedes`; cancelled entries are dropped lazily when they
        /// reach the top, which keeps cancelling a waiter O(1).
        var heap: [Entry] = []
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]

        mutating func push(_ entry: Entry) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popWaiter() -> CheckedContinuation<Void, any Error>? {
            while !heap.isEmpty {
                let top = heap[0]
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
                siftDown()
                if let waiter = waiters.removeValue(forKey: top.sequence) { return waiter }
            }
            return nil
        }

        private mutating func siftDown() {
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < heap.count && heap[left].precedes(heap[first]) { first = left }
                if right < heap.count && heap[right].precedes(heap[first]) { first = right }
                if first == parent { return }
                heap.swapAt(parent, first)
                parent = first
            }
        }
    }

    let limit: Int
    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The number of requests holding a slot.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// The number of requests waiting for a slot.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits for a slot. Every successful call must be paired with one ``release()``.
    ///
    /// - Throws: ``NetworkError/cancelled`` when the task is cancelled while waiting.
    func acquire(priority: RequestPriority) async throws {
        let sequence: UInt64? = state.withLock { state in
            if state.inFlight < limit && state.waiters.isEmpty {
                state.inFlight += 1
                return nil
            }
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        guard let sequence else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted: Bool? = state.withLock { state in
                    // The flag is set before `onCancel` runs, so a cancellation that came first is seen here.
                    if Task.isCancelled { return false }
                    if state.inFlight < limit && state.waiters.isEmpty {
                        state.inFlight += 1
                        return true
                    }
                    state.waiters[sequence] = continuation
                    state.push(Entry(priority: priority.rawValue, sequence: sequence))
                    return nil
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: NetworkError.cancelled)
                case nil: break
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: sequence) }?
                .resume(throwing: NetworkError.cancelled)
        }
    }

    /// Gives the slot to the next waiter, or frees it.
    func release() {
        let next = state.withLock { state in
            if let waiter = state.popWaiter() { return Optional(waiter) }
            state.inFlight -= 1
            return nil
        }
        next?.resume()
    }
}
