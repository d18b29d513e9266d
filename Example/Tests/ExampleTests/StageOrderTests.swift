import DemoClient
import DemoServer
import ECNetworking
import Testing

@Suite("Action stages, seen on the wire", .timeLimit(.minutes(1)))
struct StageOrderTests {
    @Test("headers added in will-begin arrive at the server")
    func willBeginHeadersArrive() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            client.network.add(action: HeaderStampAction(name: "X-Request-ID", value: "stage-test-1"))

            let echo = try await client.send(EchoRequest())

            let token = try #require(await client.token)
            // Both were added in will-begin: one by the authentication action, one by ours.
            #expect(echo.headers["authorization"] == "Bearer \(token.token)")
            #expect(echo.headers["x-request-id"] == "stage-test-1")
            let recorded = try #require(await server.recorder.requests(path: "/echo").first)
            #expect(recorded.headers["X-Request-ID"] == "stage-test-1")
        }
    }

    @Test("one send passes will-begin, began, response-began, completed, with the login inside will-begin")
    func stageOrder() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)

            _ = try await client.send(ListUsersRequest())

            #expect(
                events.events.map(\.description) == [
                    "[will-begin] GET /users",
                    "[will-begin] POST /login",
                    "[began] POST /login",
                    "[response-began] 200 POST /login",
                    "[completed] 200 POST /login",
                    "[began] GET /users",
                    "[response-began] 200 GET /users",
                    "[completed] 200 GET /users",
                ])
            // The tracer runs before the authentication action: the token is not there at its
            // will-begin, and is at began, where the request is seen as sent.
            let listing = events.events(path: "/users")
            #expect(listing.map(\.stage) == StageEvent.Stage.allCases)
            #expect(listing[0].headers["Authorization"] == nil)
            #expect(listing[1].headers["Authorization"]?.hasPrefix("Bearer ") == true)
        }
    }

    @Test("once logged in, a send passes exactly the four stages")
    func stageOrderWithToken() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            _ = try await client.send(ListUsersRequest())
            events.removeAll()

            _ = try await client.send(GetUserRequest(id: 1))

            #expect(
                events.events.map(\.description) == [
                    "[will-begin] GET /users/1",
                    "[began] GET /users/1",
                    "[response-began] 200 GET /users/1",
                    "[completed] 200 GET /users/1",
                ])
        }
    }
}
