import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Logging in on demand and after expiry", .timeLimit(.minutes(1)))
struct AuthenticationTests {
    @Test("ten concurrent requests on a new client share one login")
    func tenConcurrentRequestsShareOneLogin() async throws {
        try await withDemoServer { server in
            // Without coalescing, so that all ten reach the server instead of sharing identical GETs.
            let client = makeClient(for: server) { $0.coalescesIdenticalRequests = false }

            let answers = try await concurrently(10) { _ in try await client.send(ListUsersRequest()) }

            let logins = await server.recorder.loginCount
            let refreshes = await client.refreshCount
            let listings = await server.recorder.requests(path: "/users")
            report("10 concurrent requests: server logins \(logins), client refreshes \(refreshes)")
            #expect(answers.count == 10)
            #expect(logins == 1)
            #expect(refreshes == 1)
            #expect(listings.count == 10)
            let token = try #require(await client.token)
            #expect(listings.allSatisfy { $0.headers["Authorization"] == "Bearer \(token.token)" })
        }
    }

    @Test("a token that expires mid-run: 401, one refresh, the request retried and answered")
    func tokenExpiresMidRun() async throws {
        // One second rather than less: a busy machine can take hundreds of milliseconds from a
        // login to the request that uses its token, and that request must find the token valid.
        try await withDemoServer(DemoServerConfiguration(tokenLifetime: .seconds(1))) { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            _ = try await client.send(ListUsersRequest())
            let firstToken = try #require(await client.token)
            let loginsBefore = await server.recorder.loginCount
            let refreshesBefore = await client.refreshCount
            try await Task.sleep(for: .milliseconds(1_300))
            events.removeAll()

            let users = try await client.send(ListUsersRequest())

            let loginsAfter = await server.recorder.loginCount
            let refreshesAfter = await client.refreshCount
            let statuses = events.events(path: "/users").filter { $0.stage == .completed }.compactMap(\.statusCode)
            report(
                "token expiry: server logins \(loginsBefore) → \(loginsAfter), "
                    + "client refreshes \(refreshesBefore) → \(refreshesAfter), /users statuses \(statuses)")
            #expect(users.count == User.seed.count)
            #expect(loginsAfter - loginsBefore == 1)
            #expect(refreshesAfter - refreshesBefore == 1)
            #expect(statuses == [401, 200])
            #expect(try #require(await client.token) != firstToken)
        }
    }

    @Test("wrong credentials fail the request with the login's 401, without a loop")
    func wrongCredentials() async throws {
        try await withDemoServer { server in
            let client = DemoClient(
                baseURL: server.baseURL,
                credentials: Credentials(username: "demo", password: "wrong"),
                logSink: .discard)

            let error = await #expect(throws: NetworkError.self) { try await client.send(ListUsersRequest()) }

            #expect(error?.statusCode == 401)
            #expect(error?.decodeBody(APIError.self)?.error == "invalid_credentials")
            #expect(await server.recorder.loginCount == 1)
            #expect(await server.recorder.requests(path: "/users").isEmpty)
        }
    }
}
