/// Where ``HTTPNetwork/send(_:storage:policy:priority:)`` keeps raw responses between sends,
/// so a request can be answered from the store, revalidated, or served when the network fails.
///
/// Two stores come with the library: ``InMemoryResponseStore`` and ``DiskResponseStore``. Write your
/// own over any database; ``StoredResponse`` is `Codable` for that reason.
///
/// A store holds responses as they came over the wire, not decoded values, so a change to a model's
/// decoding never leaves undecodable values behind: an entry that no longer decodes is dropped and
/// fetched again. Methods do not throw because a store is an optimisation: a failing store behaves
/// like an empty one.
///
/// Keys of entries that belong to a ``StoragePartition`` begin with a digest of it; use
/// ``StoragePartition/contains(key:)`` to implement ``removeAll(in:)``.
public protocol ResponseStore: Sendable {
    /// The response stored under `key`, or `nil` when there is none (or it could not be read).
    func storedResponse(for key: String) async -> StoredResponse?

    /// Stores `response` under `key`, replacing any response already there.
    func store(_ response: StoredResponse, for key: String) async

    /// Removes the response stored under `key`, if any.
    func removeResponse(for key: String) async

    /// Removes every stored response.
    func removeAll() async

    /// Removes every response stored in `partition` and no other, for example on sign-out.
    func removeAll(in partition: StoragePartition) async
}

extension ResponseStore {
    /// Removes every stored response, those of other partitions included: a store that cannot
    /// list its keys can only be sure the partition is gone by emptying itself. Implement it to
    /// keep the other entries.
    public func removeAll(in partition: StoragePartition) async {
        await removeAll()
    }
}
