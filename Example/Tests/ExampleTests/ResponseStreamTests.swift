import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Streamed responses end to end", .timeLimit(.minutes(1)))
struct ResponseStreamTests {
    private let clock = ContinuousClock()

    @Test("NDJSON lines arrive one by one while the server is still writing, after every stage ran on the head")
    func linesArriveOverTime() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            // Long enough that a loaded machine, which can hold the client a second behind, still
            // sees lines arrive over time.
            let (count, interval) = (8, 250)
            let start = clock.now

            let stream = try await client.network.stream(
                TokenStreamRequest(count: count, intervalMilliseconds: interval))
            let headAfter = clock.now - start
            let stagesAtHead = events.events(path: "/stream/tokens").map(\.stage)
            var arrivals: [(token: StreamToken, after: Duration)] = []
            for try await line in stream.lines {
                arrivals.append((try TokenStreamRequest.token(from: line), clock.now - start))
            }

            let words = StreamToken.words
            #expect(arrivals.map(\.token) == (0..<count).map { StreamToken(index: $0, token: words[$0]) })
            #expect(stream.headers["Content-Type"] == "application/x-ndjson")
            #expect(stagesAtHead == [.willBegin, .began, .responseBegan, .completed])
            let (first, last) = (arrivals[0].after, arrivals[count - 1].after)
            report("head after \(format(headAfter)); lines from \(format(first)) to \(format(last))")
            // The server takes seven intervals to write the eight lines. Read whole at the end, the
            // body would come with its head and all its lines at once.
            #expect(last - headAfter >= .milliseconds(2 * interval))
            #expect(last - first >= .milliseconds(2 * interval))
        }
    }

    @Test("cancel() ends the read with cancelled and closes the connection: the server sees its client go")
    func cancelClosesTheStream() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let stream = try await client.network.stream(TokenStreamRequest(count: 400, intervalMilliseconds: 25))
            var lines = stream.lines.makeAsyncIterator()
            _ = try await lines.next()
            _ = try await lines.next()

            stream.cancel()

            let error = await #expect(throws: NetworkError.self) {
                _ = try await lines.next()
            }
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
            let noticed = try await eventually { await server.recorder.abandonedStreams == ["/stream/tokens"] }
            #expect(noticed, "the server went on writing the stream to nobody")
        }
    }

    @Test("cancelling the task that reads a stream closes the connection")
    func cancellingTheReaderClosesTheStream() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let (firstLines, firstLinesArrived) = AsyncStream.makeStream(of: Void.self)
            let reader = Task {
                let stream = try await client.network.stream(TokenStreamRequest(count: 400, intervalMilliseconds: 25))
                var count = 0
                for try await _ in stream.lines {
                    count += 1
                    if count == 2 { firstLinesArrived.yield() }
                }
                return count
            }
            for await _ in firstLines { break }

            reader.cancel()

            let result = await reader.result
            let error = #expect(throws: NetworkError.self) { try result.get() }
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
            let noticed = try await eventually { await server.recorder.abandonedStreams == ["/stream/tokens"] }
            #expect(noticed, "the server went on writing the stream to nobody")
        }
    }

    @Test("the bytes that arrived before the server dropped the connection are read before its error")
    func bytesBeforeADropAreRead() async throws {
        try await readLateAfterADrop()
    }

    private func readLateAfterADrop() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let stream = try await client.network.stream(BigDownloadRequest(bytes: 200_000, failAfter: 100_000))
            // The reader comes late: the first half and the drop have both arrived by then.
            try await Task.sleep(for: .milliseconds(500))

            var received = 0
            var failure: (any Error)?
            do {
                for try await chunk in stream {
                    received += chunk.count
                }
            } catch {
                failure = error
            }

            #expect(failure is NetworkError, "the body is short of its length: \(String(describing: failure))")
            #expect(received == 100_000, "\(received) of the 100000 bytes that arrived were read")
        }
    }

    @Test("an open stream does not hold the only concurrency slot, unless streamsHoldConcurrencySlot says so")
    func streamsLeaveTheSlotAtTheHead() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server) { $0.maximumConcurrentRequests = 1 }
            let stream = try await client.network.stream(TokenStreamRequest(count: 400, intervalMilliseconds: 25))
            var lines = stream.lines.makeAsyncIterator()
            _ = try await lines.next()

            // The stream is still open, and another send gets the slot.
            let reply = try await client.send(SlowRequest(milliseconds: 0))
            #expect(reply.waitedMilliseconds == 0)
            stream.cancel()

            let holding = makeClient(for: server) {
                $0.maximumConcurrentRequests = 1
                $0.streamsHoldConcurrencySlot = true
            }
            let held = try await holding.network.stream(TokenStreamRequest(count: 400, intervalMilliseconds: 25))
            let waiting = Task { try await holding.send(SlowRequest(milliseconds: 0)) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(await server.recorder.requests(path: "/slow").count == 1, "the second send waits for the stream")
            held.cancel()
            _ = try await waiting.value
            #expect(await server.recorder.requests(path: "/slow").count == 2)
        }
    }
}
