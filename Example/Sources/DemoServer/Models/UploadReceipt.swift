/// The reply of `POST /upload`.
public struct UploadReceipt: Codable, Sendable, Equatable {
    /// The number of body bytes the server received.
    public var bytes: Int

    /// Creates an upload receipt.
    public init(bytes: Int) {
        self.bytes = bytes
    }
}
