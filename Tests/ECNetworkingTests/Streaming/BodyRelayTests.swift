import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// The relay between a streamed body's transport and its consumer is a handoff: the transport's
/// buffer is the only one, so a paused consumer holds one chunk more than it took, never a second
/// megabyte.
@Suite("Body relay", .timeLimit(.minutes(1)))
struct BodyRelayTests {
    /// A body without end, in chunks of 64 KiB, that counts how many the relay asked for.
    private final class EndlessSource: Sendable {
        static let chunk = Data(repeating: 0x61, count: 65_536)
        let pulls = Counter()

        var stream: ByteStream {
            ByteStream { [pulls] in
                pulls.increment()
                return Self.chunk
            }
        }
    }

    @Test("a paused consumer holds one chunk beyond what it took")
    func pausedConsumer() async throws {
        let source = EndlessSource()
        let relay = BodyRelay(source.stream)
        defer { relay.stop(with: NetworkError.cancelled) }
        #expect(try await relay.next() == EndlessSource.chunk)
        // Time for a relay that read ahead to fill a buffer: 16 chunks would be 1 MiB.
        try await Task.sleep(for: .milliseconds(300))
        #expect(source.pulls.count <= 2)
        // Taking the held chunk lets the relay fetch exactly one more.
        #expect(try await relay.next() == EndlessSource.chunk)
        try await Task.sleep(for: .milliseconds(100))
        #expect(source.pulls.count <= 3)
    }

    @Test("every chunk arrives once, in order, and the end after the last")
    func order() async throws {
        let pulls = Counter()
        let relay = BodyRelay(
            ByteStream {
                let index = pulls.increment() - 1
                return index < 200 ? Data("\(index),".utf8) : nil
            })
        var received = ""
        while let chunk = try await relay.next() {
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received == (0..<200).map { "\($0)," }.joined())
        #expect(try await relay.next() == nil)
    }
}
