import DemoClient
import DemoServer
import Testing

@testable import Example

@Suite("The executable's tour and command line", .timeLimit(.minutes(1)))
struct TourTests {
    @Test("the tour runs green against the embedded server")
    func tourRunsGreen() async throws {
        try await withDemoServer { server in
            let output = LineCollector()

            let console = TourConsole(write: output.append)
            try await Tour(baseURL: server.baseURL, recorder: server.recorder, console: console).run()

            let lines = output.lines
            #expect(lines.last == "Tour complete: every step behaved as expected.")
            #expect(lines.filter { $0.hasPrefix("== ") }.count == 12)
            #expect(lines.contains("  → getUser(id: 999999) → .notFound, APIError not_found"))
            #expect(lines.filter { $0.hasPrefix("  → trace ") }.count == 3)
            #expect(lines.filter { $0.hasPrefix("  → http.client.request.duration ") }.count == 3)
            #expect(lines.contains("    [will-begin] POST /login"))
            #expect(lines.contains("  → 204 No Content → Void"))
            #expect(lines.contains("    [completed] 304 GET /catalog"))
            #expect(lines.contains("  → server read part photo: sunset.jpg, image/jpeg, 4194304 bytes"))
            #expect(lines.contains { $0.hasSuffix(": event done id 4: tick 4 ⏎ of 4") })
            #expect(lines.contains("  → 2 connections; the reconnection sent Last-Event-ID: [\"2\"]"))
            #expect(lines.contains("  → download 100 %: 8.0 MiB of 8.0 MiB"))
            #expect(
                lines.contains {
                    $0.hasPrefix("  → tour.har: POST /login 200, GET /users 200, POST /users 201, GET /users/")
                })
            #expect(
                lines.contains(
                    "  ✓ FakeNetwork(replaying:) answered the same [User], 201 and User, and the server saw no request")
            )
            #expect(
                lines.contains { $0.hasPrefix("  → GET https://localhost:") && $0.hasSuffix("/catalog: 3 products") })
            #expect(lines.contains("  ✓ the system's roots alone: .secureConnectionFailed, the certificate refused"))
            #expect(
                lines.contains(
                    "  ✓ a pin of the server's key: refused before a byte was sent (.tlsSettingUnavailable(.pins))"))
            // One login on demand, one for the new client of the concurrency step, one for the
            // recording's client.
            #expect(await server.recorder.loginCount == 3)
        }
    }

    @Test("--verbose shows the library's log as swift-log records with their structured fields")
    func verboseLog() async throws {
        try await withDemoServer { server in
            let output = LineCollector()

            let console = TourConsole(write: output.append)
            try await Tour(baseURL: server.baseURL, recorder: server.recorder, console: console, isVerbose: true).run()

            let log = output.lines.filter { $0.hasPrefix("      | ") }
            #expect(log.contains { $0.hasPrefix("      | [debug] ") })
            #expect(log.contains { $0.hasPrefix("      | [info] ") })
            #expect(log.contains { $0.contains("send.id=") && $0.contains("http.response.status_code=404") })
            // The token the requests carried never reaches the log.
            let token = try #require(
                await server.recorder.requests(path: "/users").last?.headers.values(for: "Authorization").first)
            #expect(!log.contains { $0.contains(token.dropFirst("Bearer ".count)) })
        }
    }

    @Test("the command exits 0 after touring a running server, and 1 when a step fails")
    func exitStatus() async throws {
        try await withDemoServer { server in
            #expect(await ExampleCommand.run(arguments: ["--base-url", server.baseURL.absoluteString]) == 0)
        }
        // A server with other credentials rejects the login, so the first step fails.
        try await withDemoServer(DemoServerConfiguration(password: "another")) { server in
            #expect(await ExampleCommand.run(arguments: ["--base-url", server.baseURL.absoluteString]) == 1)
        }
    }

    @Test("a command line it cannot act on exits 2")
    func usageError() async {
        #expect(await ExampleCommand.run(arguments: ["--bogus"]) == 2)
    }
}
