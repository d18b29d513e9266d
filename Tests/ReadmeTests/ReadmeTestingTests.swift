import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

// The README's "Testing" snippets, verbatim.

@Suite("README: testing with FakeNetwork and FakeStream")
struct ReadmeTestingTests {
    @Test("a stubbed send is answered and recorded; a streamed stub breaks where it says")
    func fakeNetwork() async throws {
        let fake = FakeNetwork(baseURL: URL(string: "https://api.example.com")!)
        fake.stub(ListUsersRequest.self, with: [User(id: 1, name: "Ada")])
        let users = try await fake.send(ListUsersRequest(online: true))
        #expect(users.map(\.name) == ["Ada"])
        #expect(fake.sentRequests(of: ListUsersRequest.self).first?.online == true)

        let report = Data(repeating: 7, count: 200_000)
        let broken = FakeStream.body(report, chunkSize: 4_096, every: .milliseconds(5)).breaking(after: 100_000)
        fake.stub(ReportRequest.self, streaming: broken)
        var received = 0
        do {
            for try await chunk in try await fake.stream(ReportRequest(year: 2026)) { received += chunk.count }
        } catch NetworkError.transport(let error) {
            print("lost after \(received) bytes: \(error.code)")
        }

        #expect(received == 100_000)
    }
}

@Suite("README: recording a session as HAR and replaying it")
struct ReadmeArchiveTests {
    @Test("a session recorded against a server replays through FakeNetwork once the server is gone")
    func recordAndReplay() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"[{"id":1,"name":"Ada"}]"#.utf8))
        }
        var configuration = NetworkConfiguration(baseURL: server.baseURL)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let archiveFile = folder.appendingPathComponent("users.har")

        let recorder = HTTPArchiveRecorder()
        configuration.archiveRecorder = recorder
        let network = URLSessionNetwork(configuration: configuration)
        _ = try await network.send(ListUsersRequest(online: true))
        try await recorder.write(to: archiveFile)

        let violations = HTTPArchive.schemaViolations(in: try Data(contentsOf: archiveFile))
        #expect(violations.isEmpty, "\(violations)")

        server.stop()
        let replay = try FakeNetwork(replaying: HTTPArchive(contentsOf: archiveFile), configuration: configuration)
        let users = try await replay.send(ListUsersRequest(online: true))
        #expect(users.map(\.name) == ["Ada"])
        #expect(server.requests.count == 1, "the replay reached the server")
    }
}
