import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Request framing a user can get wrong (a `Content-Length` or `Transfer-Encoding`
/// of their own, a stream whose `length:` is not its length) and a stream body that stalls while
/// the server has already answered. A request must never go out framed other than its body, and
/// the send must end with the answer or a typed error, never hang or succeed on a body the server
/// did not get whole.
///
/// A stream whose `length:` is wrong went out over `URLSessionTransport` with the gathered length
/// and succeeded, where `AsyncHTTPClientTransport` refused it; both refuse it now.
@Suite("Hostile peers: request framing a caller gets wrong", .timeLimit(.minutes(2)))
struct UploadFramingTests {
    private let clock = ContinuousClock()

    /// A server answering with the body it read and the framing fields it saw.
    private static func echoServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let text =
                "\(request.body.count)|\(request.header("Content-Length") ?? "-")|\(request.header("Transfer-Encoding") ?? "-")"
            return .response(status: 200, body: Data(text.utf8))
        }
    }

    enum WrongHeader: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case longerLength, shorterLength, chunked
        var testDescription: String { rawValue }

        func apply(to request: inout NetworkRequest) {
            switch self {
            case .longerLength: request.headers["Content-Length"] = "10"
            case .shorterLength: request.headers["Content-Length"] = "2"
            case .chunked: request.headers["Transfer-Encoding"] = "chunked"
            }
        }
    }

    /// Sends `request`, whose framing `header` contradicts, and expects it to end within 5 s with
    /// the server's echo starting `expected` (the body arrived whole) or `invalidRequest`.
    private func expectWholeOrRefused(
        _ request: NetworkRequest, over kind: TransportKind, to server: LoopbackHTTPServer, reading expected: String,
        _ header: WrongHeader
    ) async throws {
        let start = clock.now
        let result: Result<NetworkResponse, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = .seconds(10) }
        ) { network in
            do { return .success(try await network.send(request)) } catch { return .failure(error) }
        }
        #expect(clock.now - start < .seconds(5), "\(header) \(kind): took \(clock.now - start)")
        switch result {
        case .success(let response):
            let seen = String(decoding: response.body, as: UTF8.self)
            #expect(seen.hasPrefix(expected), "\(header) \(kind): the server read \(seen)")
        case .failure(let error):
            guard case .invalidRequest? = error as? NetworkError else {
                Issue.record("\(header) \(kind): expected the body whole or invalidRequest, got \(error)")
                return
            }
        }
    }

    @Test(
        "a user's Content-Length or Transfer-Encoding that contradicts a data body is either overridden (the body arrives whole) or refused typed",
        arguments: WrongHeader.allCases, TransportKind.allCases)
    func contradictingHeaderOnData(_ header: WrongHeader, _ kind: TransportKind) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        var request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("u"), body: .data(Data("hello".utf8)))
        header.apply(to: &request)
        try await expectWholeOrRefused(request, over: kind, to: server, reading: "5|", header)
    }

    @Test(
        "a user's Content-Length that contradicts a file body is either overridden or refused typed",
        arguments: [WrongHeader.longerLength, .shorterLength], TransportKind.allCases)
    func contradictingHeaderOnFile(_ header: WrongHeader, _ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("five")
        try Data("hello".utf8).write(to: file)
        let server = try Self.echoServer()
        defer { server.stop() }
        var request = NetworkRequest(
            method: .put, url: server.baseURL.appendingPathComponent("u"), body: .file(at: file))
        header.apply(to: &request)
        try await expectWholeOrRefused(request, over: kind, to: server, reading: "5|5|", header)
    }

    @Test(
        "a stream whose length: is not the bytes it yields fails typed on every transport, rather than going out framed otherwise",
        arguments: [3, 10], TransportKind.allCases)
    func streamLengthMismatch(declared: Int, _ kind: TransportKind) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("hello".utf8))
            continuation.finish()
        }
        let request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("u"),
            body: .stream(chunks, length: declared, contentType: "application/octet-stream"))
        let start = clock.now
        let result: Result<NetworkResponse, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = .seconds(10) }
        ) { network in
            do { return .success(try await network.send(request)) } catch { return .failure(error) }
        }
        #expect(clock.now - start < .seconds(5), "declared \(declared) \(kind): took \(clock.now - start)")
        switch result {
        case .success(let response):
            Issue.record(
                "declared \(declared) \(kind): succeeded; the server read \(String(decoding: response.body, as: UTF8.self))"
            )
        case .failure(let error):
            let typed = error as? NetworkError
            switch typed {
            case .invalidRequest?, .requestBodyFailed?: break
            default:
                Issue.record("declared \(declared) \(kind): expected invalidRequest or requestBodyFailed, got \(error)")
            }
        }
    }

    /// Without its deadline such a send would never end, since the stream neither yields again nor
    /// finishes: the end is held to the deadline plus ``promptBound``, as a deadline's error is
    /// elsewhere, since FoundationNetworking's one queue for the whole process and the test pool's
    /// threads can each be kept busy for seconds by the tests beside it (a run beside a build saw
    /// both `URLSession` cases end after 26.8 s), and a timeout must be the send's own deadline.
    @Test(
        "a stream body that stalls after its first chunk, to a server that answers 413 at once, ends with the 413 or its deadline, never later",
        arguments: TransportKind.allCases)
    func stalledStreamAnsweredEarly(_ kind: TransportKind) async throws {
        let server = try HostilePeerServer { connection in
            guard connection.readHead() != nil else { return }
            connection.write("HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            connection.shutdownWrite()
            connection.drain()
        }
        defer { server.stop() }
        let (chunks, continuation) = AsyncStream<Data>.makeStream()
        continuation.yield(Data(count: 1_024))
        defer { continuation.finish() }
        let request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("u"),
            body: .stream(chunks, length: 4_096, contentType: "application/octet-stream"))
        let deadline: Duration = .seconds(8)
        let start = clock.now
        let result: Result<NetworkResponse, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = deadline }
        ) { network in
            do { return .success(try await network.send(request)) } catch { return .failure(error) }
        }
        let elapsed = clock.now - start
        #expect(elapsed < deadline + promptBound, "\(kind): took \(elapsed)")
        switch result {
        case .failure(NetworkError.unacceptableStatusCode(let response)):
            #expect(response.statusCode == 413)
        case .failure(NetworkError.timedOut(let after)):
            // URLSessionTransport gathers the stream before it sends anything (documented).
            #expect(kind.usesURLSession, "\(kind): waited for the deadline though the 413 had come")
            #expect(after == deadline, "\(kind): ended by another time limit")
        case let other:
            Issue.record("\(kind): expected the 413, got \(other)")
        }
    }
}
