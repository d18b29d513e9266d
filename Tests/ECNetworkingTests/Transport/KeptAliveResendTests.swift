import ECNetworking
import Foundation
import TestSupport
import Testing

/// A kept-alive connection that closes without an answer to a request the server read whole, as a
/// server whose idle timeout ran out just then does. libcurl, under `URLSessionTransport` on Linux,
/// then sends the request again on a fresh connection and asks for its body from the start, which
/// FoundationNetworking could not give: the head went out again with none of the body, and the
/// send waited for its deadline, for a data body as for a file.
@Suite("A body on a kept-alive connection that closes without an answer", .timeLimit(.minutes(2)))
struct KeptAliveResendTests {
    /// The kinds of body a request may carry.
    enum Body: String, CaseIterable, CustomTestStringConvertible {
        case data, file, stream
        var testDescription: String { rawValue }
    }

    /// `contents` as a body of `kind`, a file of which goes in `folder`.
    private static func body(_ kind: Body, _ contents: Data, folder: URL) throws -> RequestBody {
        switch kind {
        case .data:
            return .data(contents, contentType: "application/octet-stream")
        case .file:
            let file = folder.appendingPathComponent("upload.bin")
            try contents.write(to: file)
            return .file(at: file)
        case .stream:
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(contents.prefix(10_000))
                continuation.yield(contents.dropFirst(10_000))
                continuation.finish()
            }
            return .stream(chunks, length: contents.count, contentType: "application/octet-stream")
        }
    }

    @Test(
        "a PUT is sent whole again on a fresh connection (but a one-shot stream, which fails at once); a POST, which the server may have acted on, fails at once as maybe sent",
        arguments: [HTTPMethod.put, .post], Body.allCases)
    func sentAgainOnlyWhenIdempotent(_ method: HTTPMethod, _ body: Body) async throws {
        for kind in TransportKind.allCases {
            try await expectResend(method, body, over: kind)
        }
    }

    private func expectResend(_ method: HTTPMethod, _ body: Body, over kind: TransportKind) async throws {
        let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("KeptAliveResendTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = Counter()
        // The first upload comes on the connection the GET left open, read whole, then closed.
        let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { request in
            guard request.method == method.rawValue else { return .response(status: 200, body: Data("warm".utf8)) }
            return uploads.increment() == 1
                ? .raw(Data()) : .response(status: 200, body: Data(String(request.body.count).utf8))
        }
        defer { server.stop() }

        let started = ContinuousClock.now
        let result = try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(20) }) {
            network in
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("warm")))
            let upload = NetworkRequest(
                method: method, url: server.baseURL.appendingPathComponent("upload"),
                body: try Self.body(body, contents, folder: folder))
            do {
                return Result<NetworkResponse, NetworkError>.success(try await network.send(upload))
            } catch let error as NetworkError {
                return .failure(error)
            }
        }
        // What the server saw, for a failure to say: which heads came, and on how many connections.
        let seen = "heads \(server.requestHeads), on \(server.acceptedConnectionCount) connections"
        // At once: well before the deadline the old code waited for.
        #expect(ContinuousClock.now - started < .seconds(10), "\(method) of a \(body) body over \(kind); \(seen)")
        // Only whole requests: a head without its body is never one.
        let uploaded = server.requests.filter { $0.method == method.rawValue }
        #expect(uploaded.allSatisfy { $0.header("Content-Length") == String(contents.count) })
        #expect(uploaded.allSatisfy { $0.header("Transfer-Encoding") == nil })
        #expect(uploaded.allSatisfy { $0.body == contents }, "\(uploaded.map(\.body.count))")
        // A one-shot stream that went out as it was read (over async-http-client; URLSession
        // gathers it first) cannot go out twice: its PUT fails as a POST does.
        let sendsAgain = method == .put && (body != .stream || kind.usesURLSession)
        switch (sendsAgain, result) {
        case (true, .success(let response)):
            #expect(response.statusCode == 200)
            #expect(uploaded.count == 2, "\(method) of a \(body) body over \(kind)")
        case (false, .failure(let error)):
            #expect(error.transportCode == .networkConnectionLost, "\(error)")
            // Said of a method that is not idempotent, the one a caller must not simply send again.
            #expect(error.requestMayHaveBeenSent == (method == .post), "\(method) of a \(body) body over \(kind)")
            #expect(uploaded.count == 1, "\(method) of a \(body) body over \(kind)")
            if method == .post, kind.usesURLSession {
                // libcurl sent the head again on a fresh connection before the library could stop
                // it, and the library stopped it before any of the body: a second, incomplete request.
                let deadline = ContinuousClock.now + .seconds(5)
                while server.requestHeads.filter({ $0.hasPrefix("POST") }).count < 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(server.requestHeads.filter { $0.hasPrefix("POST") }.count == 2, "\(server.requestHeads)")
            }
        default:
            Issue.record("\(method) of a \(body) body over \(kind) ended with \(result); \(seen)")
        }
    }
}
