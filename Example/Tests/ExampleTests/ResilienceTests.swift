import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Resilience: Retry-After, expired tokens, redirects, size limits", .timeLimit(.minutes(1)))
struct ResilienceTests {
    private let clock = ContinuousClock()

    @Test("/flaky answers 503 with Retry-After: 1, and the retry policy waits that long once")
    func retryAfter() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            let start = clock.now

            let reply = try await client.send(FlakyRequest())

            let elapsed = clock.now - start
            let delays = events.retryDelays(path: "/flaky")
            let statuses = events.events(path: "/flaky").filter { $0.stage == .completed }.compactMap(\.statusCode)
            report("/flaky: retry delay \(delays.map(format)), whole send \(format(elapsed))")
            #expect(reply == FlakyReply(ok: true, attempt: 2))
            #expect(statuses == [503, 200])
            let delay = try #require(delays.count == 1 ? delays.first : nil)
            // Retry-After is a floor the jitter never shortens; the ceiling only rules out a hang
            // (a loaded machine once took 3.8 s to wake the retry), and only one retry happened.
            #expect(delay >= .milliseconds(950))
            #expect(delay < .seconds(10))
        }
    }

    @Test("twenty concurrent requests with an expired token cause exactly one more login")
    func twentyRequestsWithAnExpiredToken() async throws {
        // One second: long enough that the renewed token is still valid when twenty retries arrive.
        try await withDemoServer(DemoServerConfiguration(tokenLifetime: .seconds(1))) { server in
            let events = StageEventLog()
            // Without coalescing, so that twenty requests, not one shared call, meet the expired token.
            let client = makeClient(for: server, events: events) { $0.coalescesIdenticalRequests = false }
            _ = try await client.send(ListUsersRequest())
            let loginsBefore = await server.recorder.loginCount
            let refreshesBefore = await client.refreshCount
            let listingsBefore = await server.recorder.requests(path: "/users").count
            try await Task.sleep(for: .milliseconds(1_300))
            events.removeAll()

            let answers = try await concurrently(20) { _ in try await client.send(ListUsersRequest()) }

            let loginsAfter = await server.recorder.loginCount
            let refreshesAfter = await client.refreshCount
            let rejected = events.events(path: "/users").filter { $0.stage == .completed && $0.statusCode == 401 }
            report(
                "20 concurrent with an expired token: server logins \(loginsBefore) → \(loginsAfter), "
                    + "client refreshes \(refreshesBefore) → \(refreshesAfter), 401s \(rejected.count)")
            #expect(answers.count == 20)
            #expect(loginsAfter - loginsBefore == 1)
            #expect(refreshesAfter - refreshesBefore == 1)
            // Every request that met the expired token was answered after the one refresh.
            #expect(!rejected.isEmpty)
            let listingsAfter = await server.recorder.requests(path: "/users").count
            #expect(listingsAfter - listingsBefore == 20 + rejected.count)
        }
    }

    @Test("a redirect to a second server does not carry the Authorization header there")
    func crossOriginRedirect() async throws {
        try await withDemoServer { first in
            try await withDemoServer { second in
                let client = makeClient(for: first)
                let target = second.baseURL.appendingPathComponent("echo")

                let echo = try await client.send(CrossOriginRedirectRequest(target: target))

                let atFirst = try #require(await first.recorder.requests(path: "/redirect").first)
                let atSecond = try #require(await second.recorder.requests(path: "/echo").first)
                let firstSawToken = atFirst.headers["Authorization"] != nil
                let secondSawToken = atSecond.headers["Authorization"] != nil
                report(
                    "redirect \(first.port) → \(second.port): Authorization at the first server \(firstSawToken), "
                        + "at the second \(secondSawToken)")
                #expect(atFirst.headers["Authorization"]?.hasPrefix("Bearer ") == true)
                #expect(atSecond.headers["Authorization"] == nil)
                #expect(echo.headers["authorization"] == nil)
                // Only credentials are dropped: the other headers follow the redirect.
                #expect(atSecond.headers["Accept"] == "application/json")
            }
        }
    }

    @Test("a 50 MB body against a 1 MB limit fails with responseTooLarge, promptly")
    func responseTooLarge() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server) { $0.maximumResponseSize = 1_048_576 }
            let start = clock.now

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(BigDownloadRequest(bytes: 52_428_800))
            }

            let elapsed = clock.now - start
            report("50 MB download against a 1 MB limit failed after \(format(elapsed))")
            guard case .responseTooLarge(let limit)? = error else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 1_048_576)
            #expect(elapsed < .seconds(20), "the limit must stop the transfer, not hang")
            // A body at the limit still passes, so the limit is not simply refusing everything.
            let exact = try await client.send(BigDownloadRequest(bytes: 1_048_576))
            #expect(exact.count == 1_048_576)
        }
    }
}
