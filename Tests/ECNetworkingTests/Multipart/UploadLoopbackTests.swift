import ECNetworking
import Foundation
import TestSupport
import Testing

/// Answers every upload with an empty JSON object.
private func makeUploadServer() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { _ in
        .response(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
    }
}

/// The parts of a multipart body, split at `boundary`, each as its head and its content.
private func parts(of body: Data, boundary: String) -> [(head: String, content: Data)] {
    let delimiter = Data("--\(boundary)".utf8)
    var pieces: [Data] = []
    var rest = body[...]
    while let range = rest.range(of: delimiter) {
        pieces.append(Data(rest[..<range.lowerBound]))
        rest = rest[range.upperBound...]
    }
    // The preamble before the first delimiter, then one piece per part; the epilogue "--\r\n" stays in `rest`.
    return pieces.dropFirst().compactMap { piece in
        // A delimiter line ends with CRLF; the head runs from there to the blank line.
        guard piece.starts(with: Data("\r\n".utf8)), let blank = piece.range(of: Data("\r\n\r\n".utf8)) else {
            return nil
        }
        let head = String(decoding: piece[(piece.startIndex + 2)..<blank.lowerBound], as: UTF8.self)
        // Each part's content ends with the CRLF that precedes the next delimiter.
        return (head, Data(piece[blank.upperBound..<piece.index(piece.endIndex, offsetBy: -2)]))
    }
}

@Suite("Uploads against a loopback server")
struct UploadLoopbackTests {
    @Test(
        "a multipart upload with a file part arrives whole, part by part, in memory or from a temporary file",
        arguments: [10_000_000, 0])
    func multipartUpload(memoryThreshold: Int) async throws {
        let server = try makeUploadServer()
        defer { server.stop() }
        let photo = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try makeTemporaryFile(photo, name: "photo.jpg")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartFormData()
        form.memoryThreshold = memoryThreshold
        form.append("Ada", name: "author")
        form.append(fileAt: file, name: "photo", contentType: "image/jpeg")
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        let response = try await network.send(
            NetworkRequest(method: .post, url: server.baseURL.appendingPathComponent("photos"), body: .multipart(form)))

        #expect(response.statusCode == 200)
        let received = try #require(server.requests.first)
        #expect(received.header("Content-Type") == form.contentType)
        // In memory or written to disk, the form goes out with its length.
        #expect(received.header("Content-Length") == String(received.body.count))
        let sent = parts(of: received.body, boundary: form.boundary)
        #expect(sent.count == 2)
        #expect(sent.first?.head == "Content-Disposition: form-data; name=\"author\"")
        #expect(sent.first?.content == Data("Ada".utf8))
        #expect(
            sent.last?.head
                == "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg")
        #expect(sent.last?.content == photo)
    }

    @Test("a file upload arrives whole, framed by its Content-Length on every platform, never chunked")
    func fileUpload() async throws {
        let server = try makeUploadServer()
        defer { server.stop() }
        let contents = Data((0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = try makeTemporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        _ = try await network.send(
            NetworkRequest(method: .put, url: server.baseURL.appendingPathComponent("blob"), body: .file(at: file)))

        let received = try #require(server.requests.first)
        // On every platform: an endpoint that insists on a length (S3's pre-signed PUT) gets one.
        #expect(received.header("Content-Length") == String(contents.count))
        #expect(received.header("Transfer-Encoding") == nil)
        #expect(received.body == contents)
    }

    @Test("a file body whose file is gone by the time it is sent fails with a typed error, and sends nothing")
    func fileGoneBeforeSending() async throws {
        let server = try makeUploadServer()
        defer { server.stop() }
        let file = try makeTemporaryFile(Data("gone".utf8))
        let body = RequestBody.file(at: file)
        try FileManager.default.removeItem(at: file.deletingLastPathComponent())
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        await #expect(throws: NetworkError.self) {
            _ = try await network.send(
                NetworkRequest(method: .put, url: server.baseURL.appendingPathComponent("blob"), body: body))
        }
        #expect(server.requests.isEmpty)
    }

    @Test("a stream upload arrives whole")
    func streamUpload() async throws {
        let server = try makeUploadServer()
        defer { server.stop() }
        let chunks = (0..<20).map { Data(repeating: UInt8($0), count: 10_000) }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        _ = try await network.send(
            NetworkRequest(
                method: .post, url: server.baseURL.appendingPathComponent("stream"),
                body: .stream(chunkStream(chunks), length: 200_000)))

        #expect(server.requests.first?.body == chunks.reduce(Data(), +))
    }
}
