import ECNetworking
import Foundation

/// `PUT <baseURL>/upload` with a body of the transfer scenario's: a file, a stream or a form with
/// the file as its one part. The response is the byte count the server received.
struct UploadRequest: Request {
    typealias Response = Data

    /// How the body is sent.
    enum Body: Sendable {
        /// The file, read as it is sent.
        case file(URL)
        /// `byteCount` bytes produced in 64 KiB chunks as they are sent, with their length.
        case stream(byteCount: Int)
        /// A `multipart/form-data` form with the file as its one part.
        case form(URL)
    }

    /// The body.
    let body: Body

    /// The request; no headers: the actions add them.
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .put, url: UploadSink.url(baseURL: baseURL), body: requestBody)
    }

    private var requestBody: RequestBody {
        switch body {
        case .file(let url):
            return .file(at: url)
        case .stream(let byteCount):
            return .stream(GeneratedChunks(byteCount: byteCount), length: byteCount)
        case .form(let url):
            var form = MultipartFormData()
            form.append(fileAt: url, name: "file")
            return .multipart(form)
        }
    }
}

/// `byteCount` bytes as 64 KiB chunks of one buffer, made as they are asked for.
struct GeneratedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// The chunk handed out again and again.
    private static let chunk = Data(repeating: 0x2A, count: 65_536)

    /// How many bytes in all.
    let byteCount: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(remaining: byteCount)
    }

    /// Hands out chunks until the bytes run out.
    struct Iterator: AsyncIteratorProtocol {
        var remaining: Int

        mutating func next() async -> Data? {
            guard remaining > 0 else { return nil }
            let size = Swift.min(remaining, GeneratedChunks.chunk.count)
            remaining -= size
            return size == GeneratedChunks.chunk.count ? GeneratedChunks.chunk : GeneratedChunks.chunk.prefix(size)
        }
    }
}
