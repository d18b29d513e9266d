import DemoServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("GET /slow and requests in flight")
struct SlowTests {
    @Test func waitsAtLeastTheRequestedTime() async throws {
        try await withDemoServer { _, client in
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await client.get("/slow?ms=300")
            let elapsed = clock.now - start

            #expect(response.status == 200)
            #expect(try response.decode(SlowReply.self) == SlowReply(waitedMilliseconds: 300))
            #expect(elapsed >= .milliseconds(300))
        }
    }

    @Test func rejectsANegativeDelay() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/slow?ms=-1")

            #expect(response.status == 400)
        }
    }

    @Test func countsConcurrentRequestsInFlight() async throws {
        try await withDemoServer { server, client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await client.get("/slow?ms=1000").status }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }

            #expect(await server.recorder.maximumRequestsInFlight == 4)
            #expect(await server.recorder.requestsInFlight == 0)
        }
    }

    @Test func noticesWhenTheClientGivesUp() async throws {
        try await withDemoServer { server, _ in
            let impatientClient = TestClient(server: server, timeout: 1)
            let error = await #expect(throws: URLError.self) {
                try await impatientClient.get("/slow?ms=5000")
            }
            #expect(error?.code == .timedOut)

            let noticed = try await eventually { await server.recorder.cancelledSlowRequests == 1 }
            #expect(noticed)
            #expect(await server.recorder.requestsInFlight == 0)
        }
    }
}
