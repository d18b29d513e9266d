import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `finishSendsAndInvalidate()` and a stream whose body is still to come: the stream is a send in
/// progress until its body ends, as its documentation says.
@Suite("finishSendsAndInvalidate() and streams", .timeLimit(.minutes(2)))
struct FinishingStreamsTests {
    @Test(
        "finishSendsAndInvalidate() waits for a stream whose body nobody reads, and returns once the stream is let go",
        arguments: TransportKind.allCases)
    func waitsForAnUnreadStream(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            var stream: ResponseStream? = try await network.stream(server.request(.endless))
            #expect(stream?.response.statusCode == 200)
            let finished = Counter()
            let finishing = Task {
                await network.finishSendsAndInvalidate()
                _ = finished.increment()
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(finished.count == 0, "finishSendsAndInvalidate() returned while a stream's body was unread")
            #expect(network.activeRequestCount == 1)
            stream = nil
            await finishing.value
            #expect(network.activeRequestCount == 0)
        }
    }

    @Test(
        "finishSendsAndInvalidate() waits for a stream's body to be read to its end",
        arguments: TransportKind.allCases)
    func waitsForTheBodysEnd(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let stream = try await network.stream(server.request(.gated))
            let finished = Counter()
            let finishing = Task {
                await network.finishSendsAndInvalidate()
                _ = finished.increment()
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(finished.count == 0, "finishSendsAndInvalidate() returned before the body ended")
            server.openGate()
            #expect(try await stream.collect() == Data(#"{"ok":true}"#.utf8))
            await finishing.value
            #expect(finished.count == 1)
        }
    }
}
