import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A one-shot stream body over `URLSessionTransport` goes out as it is produced, through a
/// bounded buffer, never gathered whole first; a stream that throws fails the send, typed.
@Suite("URLSessionTransport streams an upload as it is produced", .timeLimit(.minutes(2)))
struct URLSessionTransportUploadTests {
    private struct SourceFailure: Error {}

    private static let chunkSize = 65_536

    /// The bytes of chunk `index`: each chunk differs from its neighbours, so one out of order shows.
    private static func chunk(_ index: Int) -> Data {
        Data(repeating: UInt8(truncatingIfNeeded: index % 251), count: chunkSize)
    }

    @Test("a 64 MiB stream arrives whole and in order, never pulled far ahead of what the server has read")
    func largeStreamIsNotGathered() async throws {
        let chunkCount = 1_024
        let server = try LoopbackHTTPServer { _ in .response(status: 200) }
        defer { server.stop() }
        // Pulled as the transport asks, counting how far the source runs ahead of the server.
        let pulled = LockedState((chunks: 0, mostAhead: 0))
        let body = ByteStream(next: {
            let index = pulled.withLock { pulled -> Int? in
                guard pulled.chunks < chunkCount else { return nil }
                pulled.chunks += 1
                pulled.mostAhead = max(pulled.mostAhead, pulled.chunks * Self.chunkSize - server.receivedByteCount)
                return pulled.chunks - 1
            }
            return index.map(Self.chunk)
        })
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        let response = try await network.send(
            NetworkRequest(method: .post, url: server.baseURL.appendingPathComponent("upload"), body: .stream(body)))

        #expect(response.statusCode == 200)
        let received = try #require(server.requests.first).body
        #expect(received.count == chunkCount * Self.chunkSize)
        #expect(received == (0..<chunkCount).reduce(into: Data()) { $0.append(Self.chunk($1)) })
        // The transport's buffer (1 MiB), a chunk, and what the sockets hold between the two ends;
        // gathered, the whole 64 MiB would be pulled before the server read a byte.
        let mostAhead = pulled.withLock { $0.mostAhead }
        #expect(mostAhead <= 24 * 1_048_576, "the source ran \(mostAhead) bytes ahead of the server")
    }

    @Test("a stream that throws while it is sent fails the send with requestBodyFailed, carrying its error")
    func failingStream() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200) }
        defer { server.stop() }
        let produced = LockedState(0)
        let body = ByteStream(next: {
            let index = produced.withLock { count -> Int in
                count += 1
                return count
            }
            guard index <= 3 else { throw SourceFailure() }
            return Self.chunk(index)
        })
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        await #expect {
            _ = try await network.send(
                NetworkRequest(method: .post, url: server.baseURL.appendingPathComponent("upload"), body: .stream(body))
            )
        } throws: { error in
            guard case .requestBodyFailed(let underlying) = error as? NetworkError else { return false }
            return underlying is SourceFailure
        }
        #expect(server.requests.isEmpty, "the server never saw a whole request")
    }
}
