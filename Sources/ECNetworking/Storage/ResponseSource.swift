/// Where a ``StoredValue`` came from.
public enum ResponseSource: Sendable, Hashable {
    /// The network answered this send: with a new body, or with `304 Not Modified`, which confirms
    /// the stored body as current.
    case network
    /// The ``ResponseStore`` answered, without the network confirming it.
    case store
}
