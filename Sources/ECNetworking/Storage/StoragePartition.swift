/// Whose responses a ``ResponseStore`` entry holds: a user, an account, a tenant. Every entry
/// belongs to one partition or to none, and a send only ever reads, revalidates and replaces
/// entries of its own partition, so one user's stored answer never reaches another.
///
/// A request gets its partition from its custom properties, set by the app or by an action
/// (``AuthenticatingAction`` sets the one its ``Authenticator/storagePartition(for:)`` names):
///
/// ```swift
/// var request = NetworkRequest(url: baseURL.appendingPathComponent("me"))
/// request.customProperties[StoragePartition.self] = StoragePartition("user-42")
/// ```
///
/// A request that carries a credential (an `Authorization`, `Proxy-Authorization` or `Cookie`
/// header, or a credential query parameter such as `access_token`) but has no partition is neither
/// answered from the store nor stored: it goes to the network every time. Entries without a
/// partition therefore only ever come from requests without a credential. On sign-out, remove the
/// user's entries with ``ResponseStore/removeAll(in:)``.
///
/// The identifier never reaches a storage key, a file name or a file as it is: keys hold a SHA-256
/// digest of it.
public struct StoragePartition: Sendable, Hashable, CustomStringConvertible {
    /// What tells this partition apart from others, such as a user id.
    public let identifier: String

    /// Creates the partition named `identifier`, such as a user id.
    public init(_ identifier: String) {
        self.identifier = identifier
    }

    /// Shows that the value is a partition without showing the identity, so it is safe to log.
    public var description: String {
        "StoragePartition(\(digest.prefix(8)))"
    }

    /// Whether the storage key `key` belongs to this partition, for a ``ResponseStore`` that
    /// implements ``ResponseStore/removeAll(in:)`` itself.
    public func contains(key: String) -> Bool {
        key.hasPrefix(keyPrefix)
    }

    /// The text every storage key of this partition begins with.
    var keyPrefix: String {
        Self.keyMarker + digest + " "
    }

    /// The key `requestKey` (what ``StorableRequest/storageKey(for:)`` returns) has in this
    /// partition.
    func key(_ requestKey: String) -> String {
        keyPrefix + requestKey
    }

    /// The partition digest a storage key begins with, or `nil` for a key without a partition.
    static func digest(ofKey key: String) -> Substring? {
        guard key.hasPrefix(keyMarker) else { return nil }
        let digest = key.dropFirst(keyMarker.count).prefix(digestLength)
        return digest.count == digestLength ? digest : nil
    }

    /// How a key of a partition begins.
    private static let keyMarker = "partition:"
    /// Sixteen bytes of SHA-256, as hexadecimal digits: enough that two identities never share a
    /// partition by accident.
    private static let digestLength = 32

    /// The identifier's digest as hexadecimal digits.
    var digest: String {
        SHA256.hexadecimalHash(identifier, byteCount: Self.digestLength / 2)
    }
}

extension StoragePartition: CustomPropertyKey {
    /// No partition unless the app or an action sets one.
    public static let defaultValue: StoragePartition? = nil
}

extension StoragePartition: ExpressibleByStringLiteral {
    /// Creates a partition from a literal identifier, such as `"user-42"`.
    public init(stringLiteral identifier: String) {
        self.init(identifier)
    }
}
