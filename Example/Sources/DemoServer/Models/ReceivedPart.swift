/// One part of a `multipart/form-data` upload as `POST /upload/form` read it.
public struct ReceivedPart: Codable, Sendable, Equatable {
    /// The part's `name`, as its `Content-Disposition` carried it.
    public var name: String
    /// The part's `filename`, for a file; `nil` for a text field.
    public var fileName: String?
    /// The part's `Content-Type`, or `nil` when it had none.
    public var contentType: String?
    /// The number of content bytes.
    public var byteCount: Int
    /// The ``CRC32`` of the content, so a client can check that every byte arrived.
    public var checksum: UInt32
    /// The text of a field (a part without a file name); `nil` for a file.
    public var value: String?

    /// Creates a description of a received part.
    public init(
        name: String, fileName: String? = nil, contentType: String? = nil, byteCount: Int, checksum: UInt32,
        value: String? = nil
    ) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
        self.checksum = checksum
        self.value = value
    }
}
