import DemoClient
import DemoServer
import ECNetworking
import Testing

@Suite("The concurrency limit, counted by the server", .timeLimit(.minutes(1)))
struct ConcurrencyLimitTests {
    @Test("maximumConcurrentRequests = 4 is never exceeded over 20 sends")
    func limitHolds() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server) {
                $0.maximumConcurrentRequests = 4
                // Twenty identical GETs would otherwise share calls, and the limit would not be tested.
                $0.coalescesIdenticalRequests = false
            }

            let replies = try await concurrently(20) { _ in try await client.send(SlowRequest(milliseconds: 100)) }

            let maximum = await server.recorder.maximumRequestsInFlight
            report("20 sends of /slow?ms=100 with a limit of 4: at most \(maximum) in flight at the server")
            #expect(replies.count == 20)
            #expect(await server.recorder.requests(path: "/slow").count == 20)
            #expect(maximum <= 4)
            // Above one, so the requests did overlap and the bound above was really put to the test.
            #expect(maximum > 1)
        }
    }
}
