import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("FakeNetwork is safe to share between concurrent sends")
struct FakeNetworkConcurrencyTests {
    @Test("1,000 concurrent sends each get their answer and are all recorded")
    func thousandSends() async throws {
        let fake = FakeNetwork(runsActions: true)
        fake.add(action: AddToken(token: "t"))
        fake.stub(GetBookRequest.self) { request in Book(id: request.id, title: "") }
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 0..<1_000 {
                group.addTask { try await fake.send(GetBookRequest(id: id)).id }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(Set(ids) == Set(0..<1_000))
        #expect(fake.totalSendCount == 1_000)
        #expect(Set(fake.sentRequests(of: GetBookRequest.self).map(\.id)) == Set(0..<1_000))
        let built = fake.sentNetworkRequests
        #expect(built.count == 1_000)
        #expect(built.allSatisfy { $0.headers["Authorization"] == "Bearer t" })
    }
}
