import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A file in the temporary directory holding `contents`, removed by the caller.
func makeTemporaryFile(_ contents: Data, name: String = "upload.bin") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ECNetworkingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try contents.write(to: url)
    return url
}

/// A network whose session answers 503 once and 200 after, with a retry policy that retries the
/// 503 once, quickly: what a body must survive to be sent twice.
func makeNetworkRetryingOnce() -> (URLSessionNetwork, MockSession) {
    let session = MockSession()
    session.stub(with: MockResponse(statusCode: 200))
    session.stub(with: [MockResponse(statusCode: 503)])
    let network = makeNetwork(session: session) {
        $0.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
    }
    return (network, session)
}

/// Chunks of bytes produced one at a time, as an upload from a generator would be.
func chunkStream(_ chunks: [Data]) -> AsyncStream<Data> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}

@Suite("Upload bodies: files and streams")
struct UploadBodyTests {
    private let url = testBaseURL.appendingPathComponent("uploads")

    @Test("a file body is sent from disk with its size as Content-Length (chunked on Linux) and its content type")
    func fileBody() async throws {
        let contents = Data((0..<200_000).map { UInt8($0 % 251) })
        let file = try makeTemporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (network, session) = makeStubbedNetwork()

        _ = try await network.send(
            NetworkRequest(method: .put, url: url, body: .file(at: file, contentType: "image/png")))

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.httpBody == contents)
        // FoundationNetworking sends a body read from a stream chunked: a Content-Length beside
        // that would make the request malformed.
        #if canImport(FoundationNetworking)
            #expect(sent.value(forHTTPHeaderField: "Content-Length") == nil)
        #else
            #expect(sent.value(forHTTPHeaderField: "Content-Length") == "200000")
        #endif
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    @Test("a missing body file fails with invalidRequest and nothing is sent")
    func missingFile() async throws {
        let (network, session) = makeStubbedNetwork()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")

        await #expect {
            try await network.send(NetworkRequest(method: .put, url: url, body: .file(at: missing)))
        } throws: { error in
            guard case .invalidRequest(let reason)? = error as? NetworkError else { return false }
            return reason.contains(missing.lastPathComponent)
        }
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("a file body is resent whole by a retry")
    func fileBodyIsReplayed() async throws {
        let contents = Data("replay me".utf8)
        let file = try makeTemporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (network, session) = makeNetworkRetryingOnce()

        _ = try await network.send(NetworkRequest(method: .put, url: url, body: .file(at: file)))

        #expect(session.recordedRequests.map(\.httpBody) == [contents, contents])
    }

    @Test("a stream body sends its chunks in order with its content type")
    func streamBody() async throws {
        let (network, session) = makeStubbedNetwork()
        let chunks = [Data("one,".utf8), Data(), Data("two,".utf8), Data("three".utf8)]

        _ = try await network.send(
            NetworkRequest(
                method: .post, url: url, body: .stream(chunkStream(chunks), length: 13, contentType: "text/csv")))

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.httpBody == Data("one,two,three".utf8))
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "text/csv")
    }

    @Test("a retry asked by a completed action is refused for a stream body: bodyNotReplayable with the response")
    func streamNotRetriedByAction() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 401))
        network.add(action: Completed { _, response in response.statusCode == 401 ? .retry : .proceed(response) })

        await #expect {
            try await network.send(
                NetworkRequest(method: .post, url: url, body: .stream(chunkStream([Data("once".utf8)]))))
        } throws: { error in
            guard case .bodyNotReplayable(let response, let lastError)? = error as? NetworkError else { return false }
            return response?.statusCode == 401 && lastError == nil
        }
        #expect(session.recordedRequests.count == 1)
    }

    @Test("the retry policy does not resend a stream body: bodyNotReplayable with the attempt's error")
    func streamNotRetriedByPolicy() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 503)) {
            $0.retryPolicy = RetryPolicy(
                maximumAttempts: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        }

        await #expect {
            try await network.send(
                NetworkRequest(method: .put, url: url, body: .stream(chunkStream([Data("once".utf8)]))))
        } throws: { error in
            guard case .bodyNotReplayable(let response, let lastError)? = error as? NetworkError,
                case .unacceptableStatusCode? = lastError as? NetworkError
            else { return false }
            return response?.statusCode == 503
        }
        #expect(session.recordedRequests.count == 1)
    }

    @Test("GETs with a stream or file body are never joined, even with coalescing on")
    func streamBodiesAreNotCoalesced() async throws {
        let file = try makeTemporaryFile(Data("a".utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .milliseconds(200)))
        let network = makeCoalescingNetwork(session: session)
        let streamed = NetworkRequest(url: url, body: .stream(chunkStream([Data("a".utf8)])))
        let streamedAgain = NetworkRequest(url: url, body: .stream(chunkStream([Data("a".utf8)])))
        let filed = NetworkRequest(url: url, body: .file(at: file))

        async let one = network.send(streamed)
        async let two = network.send(streamedAgain)
        async let three = network.send(filed)
        async let four = network.send(filed)
        _ = try await (one, two, three, four)

        #expect(session.recordedRequests.count == 4)
    }

    @Test("file and stream bodies describe themselves without their content")
    func descriptions() {
        let file = URL(fileURLWithPath: "/tmp/photo.jpg")
        #expect(RequestBody.file(at: file, contentType: "image/jpeg").description == "file photo.jpg of image/jpeg")
        #expect(
            RequestBody.stream(chunkStream([]), length: 5, contentType: nil).description == "stream of 5 bytes")
        #expect(RequestBody.file(at: file).isReplayable)
        #expect(!RequestBody.stream(chunkStream([])).isReplayable)
    }
}
