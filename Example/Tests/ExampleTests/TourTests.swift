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
            #expect(lines.filter { $0.hasPrefix("== ") }.count == 8)
            #expect(lines.contains("    [will-begin] POST /login"))
            #expect(lines.contains("  → 204 No Content → Void"))
            #expect(lines.contains("    [completed] 304 GET /catalog"))
            // One login on demand, one for the new client of the concurrency step.
            #expect(await server.recorder.loginCount == 2)
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
