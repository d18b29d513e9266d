import DemoClient
import DemoServer
import ECNetworking
import Testing

@Suite("Error bodies and empty responses", .timeLimit(.minutes(1)))
struct ErrorBodyTests {
    @Test("a 404 carries the server's APIError in the typed error")
    func notFound() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) { try await client.send(GetUserRequest(id: 404)) }

            guard case .unacceptableStatusCode(let response)? = error else {
                Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
                return
            }
            #expect(response.statusCode == 404)
            let body = try #require(error?.decodeBody(APIError.self))
            #expect(body.error == "not_found")
            #expect(body.message == "There is no user with id 404.")
        }
    }

    @Test("a 422 carries the invalid fields in the typed error")
    func unprocessable() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(CreateUserRequest(name: " ", email: "no-at-sign"))
            }

            #expect(error?.statusCode == 422)
            let body = try #require(error?.decodeBody(APIError.self))
            #expect(body.error == "validation_failed")
            #expect(body.fields == ["name": "must not be empty", "email": "must contain @"])
        }
    }

    @Test("a 204 decodes to Void, and the user is gone")
    func noContent() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            let created = try await client.send(CreateUserRequest(name: "Barbara Liskov", email: "barbara@example.com"))

            // The annotation is the point: a 204 without a body decodes to `Void`.
            let _: Void = try await client.send(DeleteUserRequest(id: created.id))

            let deletion = events.events.last { $0.stage == .completed && $0.method == "DELETE" }
            #expect(deletion?.statusCode == 204)
            let error = await #expect(throws: NetworkError.self) {
                try await client.send(GetUserRequest(id: created.id))
            }
            #expect(error?.statusCode == 404)
        }
    }

    @Test("an identifier below 1 fails before anything is sent")
    func invalidIdentifier() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) { try await client.send(DeleteUserRequest(id: 0)) }

            guard case .invalidRequest? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(await server.recorder.requests.isEmpty)
        }
    }
}
