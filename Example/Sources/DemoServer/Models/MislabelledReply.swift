/// The reply of `GET /mislabelled`: JSON, sent under whatever `Content-Type` was asked for.
public struct MislabelledReply: Codable, Sendable, Equatable {
    /// The `Content-Type` the reply was sent with.
    public var contentType: String

    /// Creates a reply sent as `contentType`.
    public init(contentType: String) {
        self.contentType = contentType
    }
}
