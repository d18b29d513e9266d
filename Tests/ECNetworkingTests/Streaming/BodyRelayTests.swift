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

    /// A body pushed in three chunks, one after another, from a thread of its own, as a transport
    /// pushes from its own (none of the concurrency runtime's, which a slow receiver would hold).
    private static func pushedStream() -> ByteStream {
        ByteStream(
            next: { nil },
            push: { receiver in
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    Thread {
                        continuation.resume(
                            with: Result {
                                for index in 0..<3 { try receiver(Data("chunk \(index);".utf8)) }
                            })
                    }.start()
                }
            })
    }

    /// The idle timer starts with the push, and the first chunk comes from a task of the relay's
    /// that starts the pushing thread: a busy machine can hold those back past any fixed timeout
    /// (300 ms was not enough under ThreadSanitizer beside another build, nor 1 s with four suites
    /// at once beside a busy loop, nor 2.5 s in a full run beside a build and two busy loops), and
    /// a relay that hears nothing for its idle timeout rightly ends with `timedOut`. So the test
    /// holds only when the first chunk reached the receiver before the timeout could have passed
    /// (measured from before the push, which starts the timer): when it did not, the attempt is
    /// made again with twice the timeout. The first write lasts past the moment the timeout would
    /// have passed had it counted as silence.
    @Test("the idle timeout does not count the time a pushed chunk takes to write as the server's silence")
    func slowReceiverIsNotSilence() async throws {
        var idle: Duration = .milliseconds(2_500)
        for _ in 0..<3 {
            let relay = BodyRelay(Self.pushedStream())
            relay.configure(idleTimeout: idle, progress: nil, onEnd: { _ in })
            let firstOffer = LockedState<ContinuousClock.Instant?>(nil)
            let received = Log<String>()
            let write = idle / .seconds(1) + 0.5
            let pushStarted = ContinuousClock.now
            do {
                let isPushed = try await relay.push { chunk in
                    // A disk that takes longer than the idle timeout to write the first chunk,
                    // which came after the timer started.
                    let isFirst = firstOffer.withLock { first in
                        defer { first = first ?? ContinuousClock.now }
                        return first == nil
                    }
                    if isFirst { Thread.sleep(forTimeInterval: write) }
                    received.append(String(decoding: chunk, as: UTF8.self))
                }
                #expect(isPushed)
                #expect(received.all == ["chunk 0;", "chunk 1;", "chunk 2;"])
                return
            } catch NetworkError.timedOut {
                // Silence, as far as the relay knew, unless the first chunk came in time.
                let offered = firstOffer.withLock { $0 }
                if let offered, offered - pushStarted < idle {
                    Issue.record("timed out though the first chunk came after \(offered - pushStarted)")
                    return
                }
                idle *= 2
            }
        }
        Issue.record("the pushing thread never delivered its first chunk within the idle timeout, up to \(idle / 2)")
    }

    @Test("a push stopped from outside returns once the chunk being written is written")
    func stopWaitsForTheWrite() async throws {
        let relay = BodyRelay(Self.pushedStream())
        let writes = Log<String>()
        let stopped = DispatchSemaphore(value: 0)
        let push = Task {
            try await relay.push { chunk in
                writes.append("writing")
                // The first write lasts until the relay has been stopped, and a little longer.
                if writes.all.count == 1 { _ = stopped.wait(timeout: .now() + 5) }
                Thread.sleep(forTimeInterval: 0.1)
                writes.append("written")
            }
        }
        try await waitUntil { !writes.all.isEmpty }
        relay.stop(with: NetworkError.cancelled)
        stopped.signal()
        let error = await #expect(throws: NetworkError.self) { try await push.value }
        #expect(error?.isCancellation == true)
        // The push had not returned while the receiver still held a chunk.
        #expect(writes.all.last == "written", "\(writes.all)")
    }
}
