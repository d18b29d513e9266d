import DemoClient
import DemoServer
import ECNetworking
import Testing

@Suite("Cancellation and timeouts on the wire", .timeLimit(.minutes(1)))
struct CancellationAndTimeoutTests {
    private let clock = ContinuousClock()

    @Test("cancelling a request on the wire ends it at once, and the server sees the connection drop")
    func cancellation() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let send = Task { try await client.send(SlowRequest(milliseconds: 20_000)) }
            // Cancel only once the server is inside the handler, so the cancellation is on the wire.
            let arrived = try await eventually { await server.recorder.requestsInFlight == 1 }
            #expect(arrived)

            let cancelledAt = clock.now
            send.cancel()
            let result = await send.result
            let elapsed = clock.now - cancelledAt

            report("cancellation of /slow?ms=20000 ended the send after \(format(elapsed))")
            // Far below the server's 20 s, with room for a loaded machine.
            #expect(elapsed < .seconds(10), "the server would answer only after 20 s")
            let error = #expect(throws: NetworkError.self) { try result.get() }
            #expect(error?.isCancellation == true)
            let noticed = try await eventually { await server.recorder.cancelledSlowRequests == 1 }
            #expect(noticed)
        }
    }

    @Test("a 300 ms request timeout ends a 10 s request with timedOut")
    func requestTimeout() async throws {
        try await withDemoServer { server in
            // Without the retry policy, which would retry the timed-out GET and wait out 300 ms again.
            let client = makeClient(for: server) { $0.retryPolicy = nil }
            let start = clock.now

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(SlowRequest(milliseconds: 10_000, timeout: .milliseconds(300)))
            }

            let elapsed = clock.now - start
            report("timeout of 300 ms on /slow?ms=10000 ended the send after \(format(elapsed))")
            guard case .timedOut(let after)? = error else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == .milliseconds(300))
            #expect(elapsed >= .milliseconds(300))
            // Far below the server's 10 s, with room for a loaded machine.
            #expect(elapsed < .seconds(8))
        }
    }
}
