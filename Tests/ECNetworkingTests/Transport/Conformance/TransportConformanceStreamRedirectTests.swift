import ECNetworking
import Foundation
import TestSupport
import Testing

/// A 307 or 308 to a request whose body is a one-shot stream, over every transport: the request
/// and its body went out, so the send ends with the redirect in `.bodyNotReplayable`, never with an
/// error saying that nothing was sent, on which a caller could send the request again.
@Suite("Transport conformance: a redirect that would need a one-shot stream again", .timeLimit(.minutes(2)))
struct TransportConformanceStreamRedirectTests {
    @Test(
        "a POST of a stream answered 307 or 308 ends with bodyNotReplayable carrying the redirect",
        arguments: TransportKind.allCases, [307, 308])
    func streamRedirected(_ kind: TransportKind, status: Int) async throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("/import")
                ? .response(status: status, headers: ["Location": "/elsewhere"]) : .response(status: 200)
        }
        defer { server.stop() }
        let rows = Data("a,b\nc,d\n".utf8)
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(rows)
            continuation.finish()
        }
        let request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("import"),
            body: .stream(chunks, length: rows.count, contentType: "text/csv"))

        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request) }
        }

        guard case .bodyNotReplayable(let response?, nil)? = error else {
            Issue.record("expected bodyNotReplayable with the redirect, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == status)
        #expect(error?.localizedDescription.contains("was not sent again") == true)
        // The server has the request, body and all, once; the redirect's target was never asked.
        #expect(server.requests.map(\.path) == ["/import"])
        #expect(server.requests.first?.body == rows)
    }
}
