import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("FakeNetwork answers a sequence in order, then repeats the last answer")
struct FakeNetworkSequenceTests {
    private let books = [Book(id: 1, title: "Dune")]

    @Test("fail, then succeed, then keep succeeding")
    func failThenSucceed() async throws {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, with: [.error(URLError(.timedOut)), .value(books)])

        let error = try await #require(throws: URLError.self) { try await fake.send(ListBooksRequest()) }
        #expect(error.code == .timedOut)
        #expect(try await fake.send(ListBooksRequest()) == books)
        #expect(try await fake.send(ListBooksRequest()) == books)
    }

    @Test("every kind of answer can be part of a sequence")
    func mixedKinds() async throws {
        let fake = FakeNetwork()
        fake.stub(
            GetBookRequest.self,
            with: [
                .value(Book(id: 0, title: "fixed")),
                .computed { request in Book(id: request.id, title: "computed") },
                .networkResponse(NetworkResponse(statusCode: 200, body: Data(#"{"id":2,"title":"raw"}"#.utf8))),
                .error(TestError(code: 3)),
            ])
        #expect(try await fake.send(GetBookRequest(id: 9)) == Book(id: 0, title: "fixed"))
        #expect(try await fake.send(GetBookRequest(id: 9)) == Book(id: 9, title: "computed"))
        #expect(try await fake.send(GetBookRequest(id: 9)) == Book(id: 2, title: "raw"))
        await #expect(throws: TestError(code: 3)) { try await fake.send(GetBookRequest(id: 9)) }
        await #expect(throws: TestError(code: 3)) { try await fake.send(GetBookRequest(id: 9)) }
    }

    @Test("an empty sequence removes the stub")
    func emptySequenceRemovesStub() async throws {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, with: books)
        fake.stub(ListBooksRequest.self, with: [FakeResponse<ListBooksRequest>]())
        await #expect(throws: FakeNetworkError.noStub(requestType: "ListBooksRequest")) {
            try await fake.send(ListBooksRequest())
        }
    }
}
