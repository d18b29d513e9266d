import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Multipart form data")
struct MultipartFormDataTests {
    private let url = testBaseURL.appendingPathComponent("photos")

    /// The body a form of one field and one file part must produce, byte for byte.
    private func expectedBody(file contents: Data, fileName: String) -> Data {
        var body = Data()
        body.append(Data("--test-boundary\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda\r\n".utf8))
        body.append(
            Data(
                ("--test-boundary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(fileName)\"\r\n"
                    + "Content-Type: image/jpeg\r\n\r\n").utf8))
        body.append(contents)
        body.append(Data("\r\n--test-boundary--\r\n".utf8))
        return body
    }

    @Test("fields and a data part are sent with the injected boundary in the Content-Type")
    func fieldsAndDataPart() async throws {
        let (network, session) = makeStubbedNetwork()
        var form = MultipartFormData(boundary: "test-boundary")
        form.append("Ada", name: "author")
        form.append(Data([0xFF, 0xD8, 0x00]), name: "photo", fileName: "a.jpg", contentType: "image/jpeg")

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=test-boundary")
        #expect(sent.httpBody == expectedBody(file: Data([0xFF, 0xD8, 0x00]), fileName: "a.jpg"))
    }

    @Test(
        "a boundary that is not a token is quoted in the Content-Type, as RFC 2046 requires, and one that is stays bare",
        arguments: [
            ("simple-Boundary_1.x+y'z", "simple-Boundary_1.x+y'z"), ("a:b", "\"a:b\""),
            ("with space", "\"with space\""),
            ("(c)=d?e/f,g", "\"(c)=d?e/f,g\""),
        ])
    func boundaryQuoting(boundary: String, parameter: String) async throws {
        let (network, session) = makeStubbedNetwork()
        var form = MultipartFormData(boundary: boundary)
        form.append("Ada", name: "author")

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=\(parameter)")
        // The delimiter in the body is the boundary itself, never quoted.
        #expect(String(decoding: sent.httpBody ?? Data(), as: UTF8.self).hasPrefix("--\(boundary)\r\n"))
    }

    @Test(
        "a file part is read from disk, in memory below the threshold and through a temporary file above it, alike",
        arguments: [10_000_000, 0])
    func filePart(memoryThreshold: Int) async throws {
        let contents = Data((0..<300_000).map { UInt8($0 % 253) })
        let file = try makeTemporaryFile(contents, name: "beach.jpg")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (network, session) = makeStubbedNetwork()
        var form = MultipartFormData(boundary: "test-boundary")
        form.memoryThreshold = memoryThreshold
        form.append("Ada", name: "author")
        form.append(fileAt: file, name: "photo", contentType: "image/jpeg")

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.httpBody == expectedBody(file: contents, fileName: "beach.jpg"))
        if memoryThreshold == 0 {
            // Sent from disk, like any file body: with its length as Content-Length, except on
            // Linux, where FoundationNetworking sends a body read from a stream chunked.
            #if canImport(FoundationNetworking)
                #expect(sent.value(forHTTPHeaderField: "Content-Length") == nil)
            #else
                #expect(sent.value(forHTTPHeaderField: "Content-Length") == String(sent.httpBody?.count ?? -1))
            #endif
        }
    }

    @Test("the encoded body's temporary file is removed once the request is done with")
    func temporaryFileIsRemoved() throws {
        let file = try makeTemporaryFile(Data(repeating: 7, count: 1_000))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartFormData(boundary: "b")
        form.memoryThreshold = 0
        form.append(fileAt: file, name: "file")

        var encoded: (body: TransportRequestBody, temporaryFile: TemporaryFile?)? = try form.transportBody()
        let temporary = try #require(encoded?.temporaryFile?.url)
        #expect(encoded?.body.isReplayable == true)
        #expect(
            encoded?.body.length == (try FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? Int))
        encoded = nil

        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }

    @Test("a multipart body with a file is resent whole by a retry")
    func replayedByRetry() async throws {
        let file = try makeTemporaryFile(Data("abc".utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (network, session) = makeNetworkRetryingOnce()
        var form = MultipartFormData()
        form.memoryThreshold = 0
        form.append(fileAt: file, name: "file")

        _ = try await network.send(NetworkRequest(method: .put, url: url, body: .multipart(form)))

        let bodies = session.recordedRequests.map(\.httpBody)
        #expect(bodies.count == 2)
        #expect(bodies[0] != nil && bodies[0] == bodies[1])
    }

    @Test("a part whose file is gone by the time the body is sent fails with invalidRequest; nothing is sent")
    func vanishedFile() async throws {
        let file = try makeTemporaryFile(Data("gone".utf8))
        var form = MultipartFormData()
        form.append(fileAt: file, name: "file")
        try FileManager.default.removeItem(at: file.deletingLastPathComponent())
        let (network, session) = makeStubbedNetwork()

        await expectRefusedBeforeSending(form, through: network, recordedBy: session)
    }

    @Test(
        "a part file that changes size after its length was measured fails with invalidRequest, in memory or on disk",
        arguments: [10_000_000, 0])
    func fileChangesSize(memoryThreshold: Int) throws {
        let file = try makeTemporaryFile(Data(repeating: 1, count: 10))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var form = MultipartFormData()
        form.memoryThreshold = memoryThreshold
        form.append(fileAt: file, name: "file")
        // The length (and so the Content-Length) is fixed first; the file then grows, as a log
        // being written would, and then shrinks.
        let measured = try #require(form.parts.first).contentLength()
        try Data(repeating: 2, count: 20).write(to: file)

        #expect(measured == 10)
        #expect {
            _ = try form.transportBody(contentLengths: [measured])
        } throws: { error in
            guard case .invalidRequest(let reason)? = error as? NetworkError else { return false }
            return reason.contains("changed size")
        }
        try Data(repeating: 3, count: 5).write(to: file)
        #expect(throws: NetworkError.self) { _ = try form.transportBody(contentLengths: [measured]) }
    }

    @Test("an invalid injected boundary fails the send with invalidRequest")
    func invalidBoundary() async throws {
        let (network, session) = makeStubbedNetwork()
        var form = MultipartFormData(boundary: "bad\r\nboundary")
        form.append("x", name: "field")

        await expectRefusedBeforeSending(form, through: network, recordedBy: session)
    }

    @Test("random boundaries differ and are valid; quotes and line breaks in names are escaped")
    func boundaryAndEscaping() throws {
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
        var form = MultipartFormData(boundary: "b")
        form.append(Data(), name: "a\"b", fileName: "c\r\nd.txt")

        let body = String(decoding: try form.encodedInMemory(), as: UTF8.self)

        #expect(body.contains("name=\"a%22b\"; filename=\"c%0D%0Ad.txt\""))
        var random = MultipartFormData()
        random.append("x", name: "y")
        #expect(throws: Never.self) { try random.encodedInMemory() }
    }

    // Found by the multipart fuzz target: a quote or a line break followed by a combining mark is
    // one Character with it, so a search for the quote or the line break alone did not find it, and
    // a file name could end the quoted string or start a header of its own.
    @Test("a quote or a line break is escaped even when a combining mark follows it")
    func escapingBeforeCombiningMarks() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data(), name: "a\"\u{301}b", fileName: "c\n\u{301}Content-Type: text/html\r\u{301}.txt")

        let body = String(decoding: try form.encodedInMemory(), as: UTF8.self)

        #expect(
            body.contains("name=\"a%22\u{301}b\"; filename=\"c%0A\u{301}Content-Type: text/html%0D\u{301}.txt\"\r\n"))
        // The boundary, the disposition, the blank line, the empty content and the closing boundary.
        #expect(body.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 5, "only the body's own lines end")
    }
}

extension MultipartFormDataTests {
    /// Expects sending `form` through `network` to fail with `invalidRequest` before anything reaches
    /// `session`.
    fileprivate func expectRefusedBeforeSending(
        _ form: MultipartFormData, through network: URLSessionNetwork, recordedBy session: MockSession,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await #expect(sourceLocation: sourceLocation) {
            try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))
        } throws: { error in
            guard case .invalidRequest? = error as? NetworkError else { return false }
            return true
        }
        #expect(session.recordedRequests.isEmpty, sourceLocation: sourceLocation)
    }
}

@Suite("Multipart parts: headers of their own and non-ASCII file names")
struct MultipartPartHeaderTests {
    private let url = testBaseURL.appendingPathComponent("photos")

    /// The body `form` puts on the wire.
    private func sentBody(_ form: MultipartFormData) async throws -> String {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))
        let sent = try #require(session.recordedRequests.first)
        return String(decoding: sent.httpBody ?? Data(), as: UTF8.self)
    }

    @Test("a part's own headers follow its Content-Disposition and Content-Type, in order")
    func partHeaders() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append(
            Data("x".utf8), name: "photo", fileName: "a.jpg", contentType: "image/jpeg",
            headers: ["Content-ID": "<photo-1>", "X-Checksum": "sha256=abc"])

        let body = try await sentBody(form)

        #expect(
            body == "--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
                + "Content-Type: image/jpeg\r\nContent-ID: <photo-1>\r\nX-Checksum: sha256=abc\r\n\r\nx\r\n--b--\r\n")
    }

    @Test(
        "a part header that the form sets itself, that is not a field, or that breaks the line fails the send",
        arguments: [
            HTTPHeaders(["Content-Type": "text/plain"]), HTTPHeaders(["content-disposition": "inline"]),
            HTTPHeaders(["Bad Name": "x"]), HTTPHeaders(["X-Injected": "a\r\nX-Evil: 1"]),
        ])
    func invalidPartHeaders(headers: HTTPHeaders) async throws {
        let (network, session) = makeStubbedNetwork()
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "photo", headers: headers)

        let error = await #expect(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(method: .post, url: url, body: .multipart(form)))
        }
        guard case .invalidRequest? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("a non-ASCII file name goes as UTF-8 in filename by default, and also in filename* when asked")
    func extendedFileName() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "doc", fileName: "résumé 1.pdf")
        form.append(Data("y".utf8), name: "plain", fileName: "plain.txt")

        let byDefault = try await sentBody(form)
        #expect(byDefault.contains("name=\"doc\"; filename=\"résumé 1.pdf\"\r\n"))
        #expect(!byDefault.contains("filename*"))

        form.sendsExtendedFileNames = true
        let extended = try await sentBody(form)
        #expect(
            extended.contains("name=\"doc\"; filename=\"résumé 1.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%201.pdf\r\n"))
        // An ASCII name needs no second form.
        #expect(extended.contains("name=\"plain\"; filename=\"plain.txt\"\r\n"))
    }
}
