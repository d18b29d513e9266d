import Foundation

/// What a request sends as its body: bytes in memory, a file on disk, or a stream of bytes.
///
/// Bytes and files can be sent again, so a retry, a redirect that keeps the body (307, 308) or a
/// coalesced call may resend them; a stream is read once, so the library refuses to resend it.
public struct TransportRequestBody: Sendable {
    /// Where the bytes come from.
    public enum Source: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// The whole file at a `file:` URL, read as it is sent.
        case file(URL)
        /// Bytes produced as they are sent; readable once.
        case stream(ByteStream)
    }

    /// Where the bytes come from.
    public var source: Source
    /// The number of bytes, when known in advance; sent as `Content-Length`. Without it the body
    /// goes out with chunked transfer encoding.
    public var length: Int?

    /// A body of `data`.
    public static func bytes(_ data: Data) -> TransportRequestBody {
        TransportRequestBody(source: .bytes(data), length: data.count)
    }

    /// A body read from the file at `url` as it is sent, never loaded whole.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when `url` is not a readable regular file.
    public static func file(at url: URL) throws -> TransportRequestBody {
        guard url.isFileURL,
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue,
            FileManager.default.isReadableFile(atPath: url.path)
        else {
            throw NetworkError.invalidRequest(
                reason: "the body file \"\(url.lastPathComponent)\" is not a readable file")
        }
        return TransportRequestBody(source: .file(url), length: size)
    }

    /// A body produced by `stream`, `length` bytes long if known.
    public static func stream(_ stream: ByteStream, length: Int? = nil) -> TransportRequestBody {
        TransportRequestBody(source: .stream(stream), length: length)
    }

    /// Whether the body can be sent again: bytes and files can, a stream cannot.
    public var isReplayable: Bool {
        if case .stream = source { return false }
        return true
    }

    /// The body as chunks of at most `chunkSize` bytes, for a transport that streams every kind
    /// alike; a file is read as the chunks are consumed. Reading a file that vanished or shrank
    /// fails with ``NetworkError/invalidRequest(reason:)``.
    public func chunks(ofSize chunkSize: Int = 64 * 1024) -> ByteStream {
        switch source {
        case .bytes(let data): ByteStream(data)
        case .file(let url): ByteStream(readingFileAt: url, chunkSize: chunkSize, expectedLength: length)
        case .stream(let stream): stream
        }
    }
}
