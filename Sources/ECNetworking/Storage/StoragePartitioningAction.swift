/// A will-begin action that puts credentials on requests and can say, before a send through a
/// ``ResponseStore`` reads the store, which ``StoragePartition`` the request will belong to.
///
/// The store is read before any action runs (a stored answer makes no network call and runs no
/// action), so the partition of a credential an action will add must be known in advance.
/// ``AuthenticatingAction`` conforms. An action that answers ``StorageIdentity/credential(partition:)``
/// with a partition must also set that partition on the request in
/// ``RequestWillBeginAction/requestWillBegin(_:)`` (`customProperties[StoragePartition.self]`):
/// a response whose request, as sent, names another partition than the one read is not stored.
public protocol StoragePartitioningAction: RequestWillBeginAction {
    /// What this action will do to `request` as far as storage is concerned. `request` is built,
    /// with the configuration's default headers, before any action ran.
    func storageIdentity(for request: NetworkRequest) async -> StorageIdentity
}

/// What a ``StoragePartitioningAction`` will put on a request.
public enum StorageIdentity: Sendable, Hashable {
    /// No credential: the action leaves the request's identity alone.
    case unchanged
    /// A credential, belonging to `partition`; `nil` when no partition can be named (no credential
    /// yet, or an authenticator that names none), which keeps the request away from the store.
    case credential(partition: StoragePartition?)
}
