/// The reply of `GET /slow`.
public struct SlowReply: Codable, Sendable, Equatable {
    /// How long the server waited before replying, as requested by `?ms=`.
    public var waitedMilliseconds: Int

    /// Creates a slow endpoint reply.
    public init(waitedMilliseconds: Int) {
        self.waitedMilliseconds = waitedMilliseconds
    }
}
