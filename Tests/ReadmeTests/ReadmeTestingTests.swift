import ECNetworking
import ECNetworkingTesting
import Foundation
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
