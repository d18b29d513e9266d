import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A one-shot stream body over `URLSessionTransport` is gathered, but never without bound.
@Suite("URLSessionTransport: stream bodies")
struct URLSessionTransportStreamBodyTests {
    /// A stream of `count` bytes in 1 MiB chunks, each yielded after a suspension, as one from the
    /// network or a file would.
    private func stream(of count: Int) -> ByteStream {
        let chunk = Data(repeating: 0x61, count: 1_048_576)
        let sent = LockedState(0)
        return ByteStream {
            await Task.yield()
            return sent.withLock { sent -> Data? in
                guard sent < count else { return nil }
                let next = chunk.prefix(count - sent)
                sent += next.count
                return next
            }
        }
    }

    @Test("a stream over the limit fails with invalidRequest before anything is sent; one under it arrives whole")
    func bounded() async throws {
        let server = try LoopbackHTTPServer { request in
            .response(status: 200, body: Data("\(request.body.count)".utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
        defer { network.invalidate() }
        let limit = URLSessionTransport.maximumStreamBodySize

        var small = NetworkRequest(method: .post, url: server.baseURL.appendingPathComponent("upload"))
        small.body = .stream(stream(of: 3 * 1_048_576 + 5), length: nil, contentType: nil)
        let answer = try await network.send(small)
        #expect(String(decoding: answer.body, as: UTF8.self) == "\(3 * 1_048_576 + 5)")

        var large = NetworkRequest(method: .post, url: server.baseURL.appendingPathComponent("upload"))
        large.body = .stream(stream(of: limit + 1), length: nil, contentType: nil)
        let error = await networkError { _ = try await network.send(large) }
        guard case .invalidRequest(let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("\(limit) bytes"))
        #expect(server.requests.count == 1)
    }
}
