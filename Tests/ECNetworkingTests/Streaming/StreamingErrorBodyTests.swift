import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A send that reads its body itself (a stream, a download, a send with progress) reads no more
/// of a failing status's body than `maximumErrorBodySize`, on a real socket: an error page that
/// never ends fails the send at once, with the first bytes, and its connection is dropped.
@Suite("Streaming sends cap a failing status's body", .timeLimit(.minutes(2)))
struct StreamingErrorBodyTests {
    private static let chunk = Data(repeating: 0x65, count: 4_096)

    private struct Fetch: Request {
        typealias Response = Data
        let url: URL

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: url)
        }
    }

    /// A server answering every request with a 500 whose body never ends.
    private func endlessErrorServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in .endless(status: 500, chunk: Self.chunk) }
    }

    /// The response `operation` failed with, as `unacceptableStatusCode`. Bounded by
    /// `promptBound`: a send that reads the endless body would never end, so it is cancelled
    /// and the test fails instead of hanging.
    private func rejectedResponse(
        sourceLocation: SourceLocation = #_sourceLocation,
        of operation: @escaping @Sendable () async throws -> Void
    ) async throws -> NetworkResponse? {
        let ended = Counter()
        let send = Task {
            defer { ended.increment() }
            return await networkError(sourceLocation: sourceLocation) { try await operation() }
        }
        do {
            try await waitUntil(sourceLocation: sourceLocation) { ended.count == 1 }
        } catch {
            send.cancel()
            throw error
        }
        guard case .unacceptableStatusCode(let response)? = await send.value else {
            Issue.record("expected unacceptableStatusCode", sourceLocation: sourceLocation)
            return nil
        }
        return response
    }

    @Test("a stream fails at once with the first 64 KiB, and the connection closes", arguments: TransportKind.allCases)
    func stream(_ kind: TransportKind) async throws {
        let server = try endlessErrorServer()
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let response = try await rejectedResponse {
                _ = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("events")))
            }
            #expect(response?.statusCode == 500)
            #expect(response?.body.count == 65_536)
            #expect(response?.body.allSatisfy { $0 == 0x65 } == true)
            try await waitUntil { network.activeRequestCount == 0 }
        }
        try await waitUntil { server.openConnectionCount == 0 }
    }

    @Test("a download writes nothing and keeps the configured number of bytes", arguments: TransportKind.allCases)
    func download(_ kind: TransportKind) async throws {
        let server = try endlessErrorServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.maximumErrorBodySize = 1_000 }) { network in
            let response = try await rejectedResponse {
                _ = try await network.download(
                    NetworkRequest(url: server.baseURL.appendingPathComponent("report")),
                    to: directory.appendingPathComponent("report.pdf"))
            }
            #expect(response?.body.count == 1_000)
        }
        try await waitUntil { server.openConnectionCount == 0 }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a send with progress reads no more, and counts none of it", arguments: TransportKind.allCases)
    func sendWithProgress(_ kind: TransportKind) async throws {
        let server = try endlessErrorServer()
        defer { server.stop() }
        let reports = Counter()
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let response = try await rejectedResponse {
                _ = try await network.send(
                    Fetch(url: server.baseURL.appendingPathComponent("data")),
                    progress: TransferProgressHandler { _ in reports.increment() })
            }
            #expect(response?.body.count == 65_536)
        }
        try await waitUntil { server.openConnectionCount == 0 }
        #expect(reports.count == 0)
    }
}
