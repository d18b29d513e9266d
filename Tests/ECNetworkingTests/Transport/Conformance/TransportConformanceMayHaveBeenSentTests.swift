import ECNetworking
import Foundation
import TestSupport
import Testing

/// A connection lost before any answer, over every transport: a request whose method is not
/// idempotent is not sent again and says the server may have it; one that is may be sent again,
/// and never says so.
@Suite("Transport conformance: a request the server may have received", .timeLimit(.minutes(2)))
struct TransportConformanceMayHaveBeenSentTests {
    /// Reads each request whole, then closes the connection without a byte of answer: the server
    /// got the request, the client got nothing.
    private static func silentCloser() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in .raw(Data()) }
    }

    /// The error of sending `method /orders` (with a JSON body, unless a GET) to `server` over a
    /// network of `kind`.
    private static func failure(
        of method: HTTPMethod, to server: LoopbackHTTPServer, over kind: TransportKind
    ) async throws -> NetworkError {
        let url = server.baseURL.appendingPathComponent("orders")
        let body: RequestBody? =
            method == .get ? nil : .data(Data(#"{"order":"tea"}"#.utf8), contentType: "application/json")
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(NetworkRequest(method: method, url: url, body: body)) }
        }
        return try #require(error)
    }

    @Test(
        "a POST whose connection closes before any answer fails once, saying the server may have it",
        arguments: TransportKind.allCases)
    func postMayHaveBeenSent(_ kind: TransportKind) async throws {
        let server = try Self.silentCloser()
        defer { server.stop() }
        let failure = try await Self.failure(of: .post, to: server, over: kind)
        guard case .transport(let urlError) = failure else {
            Issue.record("expected a transport error, got \(failure)")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
        #expect(failure.requestMayHaveBeenSent)
        #expect(failure.localizedDescription.contains("the server may have received the request"))
        // Sent once: the library did not try it again on another connection.
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requests.filter { $0.method == "POST" }.count == 1)
    }

    @Test(
        "a GET whose connection closes before any answer never says the server may have it",
        arguments: TransportKind.allCases)
    func getIsNotMarked(_ kind: TransportKind) async throws {
        let server = try Self.silentCloser()
        defer { server.stop() }
        let failure = try await Self.failure(of: .get, to: server, over: kind)
        #expect(!failure.requestMayHaveBeenSent, "\(failure)")
        #expect(!failure.localizedDescription.contains("may have received"))
    }

    // A reset under the upload. FoundationNetworking reports it as a lost connection when libcurl
    // says "Connection reset by peer"; when libcurl's send meets the closed socket as "Broken
    // pipe" instead, it says code -1, which the transport maps (see TransportDelegateErrorTests).
    @Test(
        "a POST whose body the server cuts off part-way fails once, saying the server may have it",
        arguments: TransportKind.allCases)
    func uploadCutOff(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer(readingBodiesUpTo: 65_536) { _ in .reset(Data()) }
        defer { server.stop() }
        let request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("upload"),
            body: .data(Data(repeating: 0x61, count: 8 << 20), contentType: "application/octet-stream"))

        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request) }
        }

        guard case .transport(let urlError)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
        #expect(error?.requestMayHaveBeenSent == true)
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requests.count == 1)
    }

    @Test(
        "a POST whose answer breaks off after its head is a lost connection, not a request the server may have",
        arguments: TransportKind.allCases)
    func brokenAnswerIsNotMarked(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in
            .reset(Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\"".utf8))
        }
        defer { server.stop() }
        let failure = try await Self.failure(of: .post, to: server, over: kind)
        #expect(!failure.requestMayHaveBeenSent, "\(failure)")
    }
}
