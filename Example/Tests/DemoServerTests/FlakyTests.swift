import DemoServer
import Foundation
import Testing

@Suite("GET /flaky")
struct FlakyTests {
    @Test func failsOnceWithRetryAfterThenSucceeds() async throws {
        try await withDemoServer { _, client in
            let first = try await client.get("/flaky")
            let second = try await client.get("/flaky")

            #expect(first.status == 503)
            #expect(first.header("Retry-After") == "1")
            #expect(try first.decode(APIError.self).error == "service_unavailable")
            #expect(second.status == 200)
            #expect(try second.decode(FlakyReply.self) == FlakyReply(ok: true, attempt: 2))
        }
    }

    @Test func failureCountIsConfigurable() async throws {
        try await withDemoServer(DemoServerConfiguration(flakyFailureCount: 2)) { _, client in
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await client.get("/flaky").status)
            }

            #expect(statuses == [503, 503, 200])
        }
    }

    @Test func keysAreCountedSeparately() async throws {
        try await withDemoServer { _, client in
            let firstA = try await client.get("/flaky?key=a")
            let firstB = try await client.get("/flaky?key=b")
            let secondA = try await client.get("/flaky?key=a")

            #expect(firstA.status == 503)
            #expect(firstB.status == 503)
            #expect(secondA.status == 200)
        }
    }

    @Test func failuresParameterOverridesTheConfiguration() async throws {
        try await withDemoServer { _, client in
            let statuses = [
                try await client.get("/flaky?key=k&failures=0").status,
                try await client.get("/flaky?key=other&failures=2").status,
                try await client.get("/flaky?key=other&failures=2").status,
                try await client.get("/flaky?key=other&failures=2").status,
            ]

            #expect(statuses == [200, 503, 503, 200])
        }
    }

    @Test func resetStartsTheFailuresAgain() async throws {
        try await withDemoServer { _, client in
            _ = try await client.get("/flaky")
            let succeeded = try await client.get("/flaky")
            let reset = try await client.get("/flaky/reset")
            let failedAgain = try await client.get("/flaky")

            #expect(succeeded.status == 200)
            #expect(reset.status == 200)
            #expect(failedAgain.status == 503)
        }
    }
}
