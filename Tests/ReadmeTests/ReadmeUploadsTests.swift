import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The README's "Uploads" and "Content types" snippets, verbatim.

struct UploadPhotoRequest: Request {
    typealias Response = Void
    let photo: URL
    let caption: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var form = MultipartFormData()
        form.append(caption, name: "caption")
        form.append(fileAt: photo, name: "photo", contentType: "image/jpeg")
        return NetworkRequest(method: .post, url: baseURL.appendingPathComponent("photos"), body: .multipart(form))
    }
}

struct UploadBackupRequest: Request {
    typealias Response = Void
    let archive: URL

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .put,
            url: baseURL.appendingPathComponent("backup"),
            body: .file(at: archive, contentType: "application/zip"))
    }
}

struct Feed: Decodable, Sendable {
    let title: String
}

struct FeedRequest: Request {
    typealias Response = Feed

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("feed"))
        request.headers["Accept"] = "application/feed+json, application/json"
        return request
    }
}

/// What a signed manifest decodes to.
struct Manifest: Decodable, Sendable {
    let version: Int
}

struct SignedManifestRequest: Request {
    typealias Response = Manifest

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("manifest"))
        // Read this only when the server says it is JSON, even if another body would decode.
        request.validatesContentType = true
        return request
    }
}

@Suite("README: uploads and content types")
struct ReadmeUploadsTests {
    private let baseURL = URL(string: "https://api.example.com")!

    private func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).jpg")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a multipart photo upload and a file upload, as the README shows them")
    func multipartAndFile() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
        let photo = try temporaryFile("jpeg bytes")
        defer { try? FileManager.default.removeItem(at: photo) }

        try await network.send(UploadPhotoRequest(photo: photo, caption: "Beach"))
        try await network.send(UploadBackupRequest(archive: photo))

        let sent = session.recordedRequests
        let form = String(decoding: sent[0].httpBody ?? Data(), as: UTF8.self)
        #expect(sent[0].value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(form.contains("name=\"caption\"\r\n\r\nBeach\r\n"))
        #expect(
            form.contains("filename=\"\(photo.lastPathComponent)\"\r\nContent-Type: image/jpeg\r\n\r\njpeg bytes\r\n"))
        #expect(sent[1].httpBody == Data("jpeg bytes".utf8))
        // Sent from a stream, which FoundationNetworking sends chunked, without a Content-Length.
        #if canImport(FoundationNetworking)
            #expect(sent[1].value(forHTTPHeaderField: "Content-Length") == nil)
        #else
            #expect(sent[1].value(forHTTPHeaderField: "Content-Length") == "10")
        #endif
    }

    @Test("a stream upload, as the README shows it, and its refused retry")
    func streamUpload() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 201))
        let baseURL = baseURL
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)

        let rows = AsyncStream<Data> { continuation in
            for row in ["id,name\n", "1,Ada\n"] { continuation.yield(Data(row.utf8)) }
            continuation.finish()
        }
        let request = NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("import"),
            body: .stream(rows, contentType: "text/csv"))
        let response = try await network.send(request)

        #expect(response.statusCode == 201)
        #expect(session.recordedRequests.first?.httpBody == Data("id,name\n1,Ada\n".utf8))
    }

    @Test(
        "a mislabelled body that decodes, a page that does not, the Accept header and a strict request, as the README shows them"
    )
    func contentTypes() async throws {
        let session = MockSession()
        let json = Data(#"{"title":"News"}"#.utf8)
        session.stub(.path("/feed"), with: MockResponse(data: json, headers: ["Content-Type": "application/feed+json"]))
        session.stub(.path("/legacy/feed"), with: MockResponse(data: json, headers: ["Content-Type": "text/plain"]))
        session.stub(
            .path("/manifest"),
            with: MockResponse(data: Data(#"{"version":2}"#.utf8), headers: ["Content-Type": "text/plain"]))
        session.stub(
            .path("/login"), with: MockResponse(data: Data("<html>".utf8), headers: ["Content-Type": "text/html"]))
        var configuration = NetworkConfiguration(baseURL: baseURL)
        #expect(configuration.validatesContentType)
        let network = URLSessionNetwork(configuration: configuration, session: session)

        #expect(try await network.send(FeedRequest()).title == "News")
        // JSON labelled text/plain decodes, as it did with the libraries this one replaces.
        #expect(try await network.send(LegacyFeed()).title == "News")
        var printed = ""
        do {
            _ = try await network.send(LoginPageRequest())
        } catch NetworkError.unacceptableContentType(let response) {
            printed = "expected JSON, got \(response.headers["Content-Type"] ?? "no content type")"
        }
        #expect(printed == "expected JSON, got text/html")
        await #expect {
            try await network.send(SignedManifestRequest())
        } throws: { error in
            guard case .unacceptableContentType? = error as? NetworkError else { return false }
            return true
        }

        configuration.validatesContentType = false
        let unchecked = URLSessionNetwork(configuration: configuration, session: session)
        // The request's own setting wins over the configuration's.
        await #expect(throws: NetworkError.self) { try await unchecked.send(SignedManifestRequest()) }
        await #expect {
            try await unchecked.send(LoginPageRequest())
        } throws: { error in
            guard case .decodingFailed? = error as? NetworkError else { return false }
            return true
        }
    }
}

/// JSON served as text/plain, with no setting of its own.
private struct LegacyFeed: Request {
    typealias Response = Feed

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("legacy/feed"))
    }
}

/// A JSON endpoint that, behind a captive portal, answers with an HTML page.
private struct LoginPageRequest: Request {
    typealias Response = Feed

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("login"))
    }
}
