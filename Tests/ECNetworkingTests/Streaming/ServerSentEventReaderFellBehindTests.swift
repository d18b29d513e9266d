import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    /// UploadsDownloadsAndStreams.md and LinuxNotes.md: over `URLSessionTransport` on Linux, which
    /// cannot pause a transfer, a subscription whose loop does not keep up with the server keeps
    /// the bytes in a spill file, and past the transport's `maximumSpillSize` (64 MiB unless given)
    /// ends with `.readerFellBehind`, without reconnecting.
    @Suite("Server-Sent Events over URLSessionTransport on Linux: a reader that falls behind", .timeLimit(.minutes(1)))
    struct ServerSentEventReaderFellBehindTests {
        private struct Feed: Request {
            typealias Response = Void
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL.appendingPathComponent("feed"))
            }
        }

        private let megabyte = TransportTestRoutes.megabyte

        /// An event stream without end: each 64 KiB chunk is an event and a long comment line, so the
        /// server sends bytes far faster than a paused loop takes events, and a loop that reads on
        /// gets through the spilled bytes in few lines. The flood waits for `gate`, which the test
        /// signals once it has the first event: a loop that has not read that event yet (a busy
        /// machine, a sanitized build) would otherwise fall behind before the test stalls it.
        private static func endlessFeed(gate: DispatchSemaphore) throws -> LoopbackHTTPServer {
            let chunk = Data(("data: tick\n\n:" + String(repeating: "x", count: 65_536 - 14) + "\n").utf8)
            return try LoopbackHTTPServer { _ in
                .endless(status: 200, headers: ["Content-Type": "text/event-stream"], chunk: chunk, gate: gate)
            }
        }

        /// Subscribes over `transport` with reconnection on, takes one event, stops reading until
        /// the transfer has ended, then reads on; returns what ended the subscription.
        private func readOneThenFallBehind(
            over transport: URLSessionTransport, server: LoopbackHTTPServer, gate: DispatchSemaphore
        ) async throws -> (any Error)? {
            let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL), transport: transport)
            defer { network.invalidate() }
            // Reconnection on, so that "without reconnecting" shows.
            let events = network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10)))
            var iterator = events.makeAsyncIterator()
            #expect(try await iterator.next()?.data == "tick")
            gate.signal()
            // The loop stalls: the transfer runs on into the spill file until it is full, then ends.
            try await waitUntil { transport.activeTaskCount == 0 }
            do {
                while try await iterator.next() != nil {}
                Issue.record("the subscription ended without an error")
                return nil
            } catch {
                return error
            }
        }

        @Test(
            "with a spill limit given, the subscription ends with readerFellBehind at that limit, and does not reconnect"
        )
        func givenLimit() async throws {
            let gate = DispatchSemaphore(value: 0)
            let server = try Self.endlessFeed(gate: gate)
            defer {
                gate.signal()
                server.stop()
            }
            let transport = URLSessionTransport(maximumSpillSize: 2 * megabyte)
            defer { transport.invalidate() }

            let error = try await readOneThenFallBehind(over: transport, server: server, gate: gate)

            guard case .readerFellBehind(let limit)? = error as? NetworkError else {
                Issue.record("expected readerFellBehind, got \(String(describing: error))")
                return
            }
            #expect(limit == 2 * megabyte)
            #expect(server.requests.count == 1, "no reconnection")
        }

        @Test("with the default spill limit, the subscription ends with readerFellBehind once 64 MiB wait")
        func defaultLimit() async throws {
            let gate = DispatchSemaphore(value: 0)
            let server = try Self.endlessFeed(gate: gate)
            defer {
                gate.signal()
                server.stop()
            }
            let transport = URLSessionTransport()
            defer { transport.invalidate() }

            let error = try await readOneThenFallBehind(over: transport, server: server, gate: gate)

            guard case .readerFellBehind(let limit)? = error as? NetworkError else {
                Issue.record("expected readerFellBehind, got \(String(describing: error))")
                return
            }
            #expect(limit == 64 * megabyte)
            #expect(server.requests.count == 1, "no reconnection")
        }
    }
#endif
