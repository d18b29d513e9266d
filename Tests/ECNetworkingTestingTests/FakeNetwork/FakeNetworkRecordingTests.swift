import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("FakeNetwork records what it was sent and fails loudly without a stub")
struct FakeNetworkRecordingTests {
    @Test("an unstubbed request fails with noStub naming its type")
    func unstubbed() async throws {
        let fake = FakeNetwork()
        let error = try await #require(throws: FakeNetworkError.self) { try await fake.send(ListBooksRequest()) }
        #expect(error == .noStub(requestType: "ListBooksRequest"))
        #expect(error.description.contains("ListBooksRequest"))
        #expect(error.localizedDescription.contains("ListBooksRequest"))
    }

    @Test("typed requests are recorded as the values sent, per type and in order")
    func typedRecords() async throws {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, with: [Book]())
        fake.stub(GetBookRequest.self, throwing: TestError())
        _ = try await fake.send(ListBooksRequest(genre: "poetry"))
        _ = try? await fake.send(GetBookRequest(id: 3))
        _ = try await fake.send(ListBooksRequest(genre: "history"))

        #expect(fake.sentRequests(of: ListBooksRequest.self).map(\.genre) == ["poetry", "history"])
        #expect(fake.sentRequests(of: GetBookRequest.self).map(\.id) == [3])
        #expect(fake.sendCount(of: ListBooksRequest.self) == 2)
        #expect(fake.sendCount(of: GetBookRequest.self) == 1)
        #expect(fake.sendCount(of: DeleteBookRequest.self) == 0)
        #expect(fake.totalSendCount == 3)
    }

    @Test("the built NetworkRequests are recorded with the base URL, query and body")
    func builtRecords() async throws {
        let fake = FakeNetwork(baseURL: URL(string: "https://books.test/api")!)
        fake.stub(ListBooksRequest.self, with: [Book]())
        fake.stub(CreateBookRequest.self) { request in Book(id: 1, title: request.title) }
        _ = try await fake.send(ListBooksRequest(genre: "poetry"))
        _ = try await fake.send(CreateBookRequest(title: "Dune"))

        let sent = fake.sentNetworkRequests
        try #require(sent.count == 2)
        #expect(try sent[0].urlWithQuery().absoluteString == "https://books.test/api/books?genre=poetry")
        #expect(sent[1].method == .post)
        #expect(try sent[1].body?.encoded(defaultEncoder: JSONEncoder()).data == Data(#"{"title":"Dune"}"#.utf8))
        #expect(fake.sentNetworkRequests(of: CreateBookRequest.self).map(\.url.path) == ["/api/books"])
    }

    @Test("unstubbed and failed sends are recorded too")
    func failuresRecorded() async {
        let fake = FakeNetwork()
        _ = try? await fake.send(ListBooksRequest())
        #expect(fake.sendCount(of: ListBooksRequest.self) == 1)
        #expect(fake.sentNetworkRequests.count == 1)
    }

    @Test("a request whose build throws fails unchanged, recorded as typed only")
    func buildFailure() async throws {
        let fake = FakeNetwork()
        fake.stub(DeleteBookRequest.self, with: ())
        let error = try await #require(throws: NetworkError.self) { try await fake.send(DeleteBookRequest(id: 0)) }
        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(error)")
            return
        }
        #expect(reason == "book ids start at 1")
        #expect(fake.sentRequests(of: DeleteBookRequest.self).map(\.id) == [0])
        #expect(fake.sentNetworkRequests.isEmpty)
    }

    @Test("reset removes stubs and records")
    func reset() async throws {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, with: [Book]())
        _ = try await fake.send(ListBooksRequest())
        fake.reset()
        #expect(fake.totalSendCount == 0)
        #expect(fake.sentNetworkRequests.isEmpty)
        await #expect(throws: FakeNetworkError.noStub(requestType: "ListBooksRequest")) {
            try await fake.send(ListBooksRequest())
        }
    }
}
