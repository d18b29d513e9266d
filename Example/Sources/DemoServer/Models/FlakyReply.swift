/// The reply of `GET /flaky` once it stops failing.
public struct FlakyReply: Codable, Sendable, Equatable {
    /// Always `true`; the endpoint only replies with a body like this on success.
    public var ok: Bool
    /// Which attempt for this key succeeded, counting from 1, so tests can tell how many retries happened.
    public var attempt: Int

    /// Creates a flaky endpoint reply.
    public init(ok: Bool, attempt: Int) {
        self.ok = ok
        self.attempt = attempt
    }
}
