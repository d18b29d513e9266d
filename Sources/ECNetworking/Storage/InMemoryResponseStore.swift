/// A ``ResponseStore`` in memory, for responses worth keeping for the life of the process only.
///
/// It keeps at most ``byteBudget`` bytes of bodies and headers (see ``StoredResponse/byteCount``);
/// storing past the budget drops the least recently used responses first, and a response larger
/// than the whole budget is not kept at all. Reading and storing take constant time. Safe to share
/// between networks and tasks: one lock guards the entries.
///
/// ```swift
/// let store = InMemoryResponseStore(byteBudget: 4 * 1024 * 1024)
/// let users = try await network.send(ListUsersRequest(), storage: store, policy: .storedIfFresh)
/// ```
public final class InMemoryResponseStore: ResponseStore {
    /// The most bytes of bodies and headers kept at once.
    public let byteBudget: Int
    private let entries = LockedState(LeastRecentlyUsedList<StoredResponse>())

    /// Creates an empty store that keeps at most `byteBudget` bytes; 10 MiB by default.
    public init(byteBudget: Int = 10 * 1024 * 1024) {
        self.byteBudget = max(0, byteBudget)
    }

    /// The bytes of bodies and headers kept now; never more than ``byteBudget``.
    public var byteCount: Int {
        entries.withLock { $0.totalCost }
    }

    /// The number of responses kept now.
    public var count: Int {
        entries.withLock { $0.count }
    }

    /// The response stored under `key`, which becomes the most recently used.
    public func storedResponse(for key: String) async -> StoredResponse? {
        entries.withLock { $0.use(key) }
    }

    /// Stores `response` under `key`, then drops the least recently used responses until the
    /// total is within the budget. A response larger than the budget replaces nothing: any older
    /// response under `key` is removed, since it is no longer the current one.
    public func store(_ response: StoredResponse, for key: String) async {
        let cost = response.byteCount
        entries.withLock { entries in
            guard cost <= byteBudget else {
                entries.remove(key)
                return
            }
            entries.insert(response, cost: cost, for: key)
            while entries.totalCost > byteBudget, entries.removeOldest() != nil {}
        }
    }

    /// Removes the response stored under `key`, if any.
    public func removeResponse(for key: String) async {
        entries.withLock { _ = $0.remove(key) }
    }

    /// Removes every response.
    public func removeAll() async {
        entries.withLock { $0.removeAll() }
    }

    /// Removes every response stored in `partition`, and keeps the others.
    public func removeAll(in partition: StoragePartition) async {
        entries.withLock { $0.removeAll { key in partition.contains(key: key) } }
    }
}
