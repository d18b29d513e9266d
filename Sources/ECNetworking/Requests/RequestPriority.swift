/// How soon a request leaves the queue when ``NetworkConfiguration/maximumConcurrentRequests``
/// is reached: a higher priority goes first; equal priorities go in the order they were sent.
public struct RequestPriority: RawRepresentable, Hashable, Comparable, Sendable {
    /// The priority as a number; larger leaves the queue sooner.
    public let rawValue: Int

    /// Creates a priority from a number, for levels between the named ones.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Work the user is not waiting for (prefetching, analytics).
    public static let low = RequestPriority(rawValue: -100)
    /// The default.
    public static let normal = RequestPriority(rawValue: 0)
    /// Work the user is waiting for.
    public static let high = RequestPriority(rawValue: 100)

    /// Orders priorities by their number.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
