import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("FakeNetwork answers each kind of stub")
struct FakeNetworkStubTests {
    private let books = [Book(id: 1, title: "Dune"), Book(id: 2, title: "Emma")]

    @Test("a value stub answers with that value")
    func value() async throws {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, with: books)
        #expect(try await fake.send(ListBooksRequest()) == books)
    }

    @Test("a Void request is answered with ()")
    func void() async throws {
        let fake = FakeNetwork()
        fake.stub(DeleteBookRequest.self, with: ())
        try await fake.send(DeleteBookRequest(id: 3))
        #expect(fake.sendCount(of: DeleteBookRequest.self) == 1)
    }

    @Test("a closure stub sees the request value that was sent")
    func closureSeesRequest() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self) { request in Book(id: request.id, title: "Book \(request.id)") }
        #expect(try await fake.send(GetBookRequest(id: 7)) == Book(id: 7, title: "Book 7"))
        #expect(try await fake.send(GetBookRequest(id: 9)) == Book(id: 9, title: "Book 9"))
    }

    @Test("an error thrown by a closure stub fails the send unchanged")
    func closureThrows() async {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self) { request in throw TestError(code: request.id) }
        await #expect(throws: TestError(code: 4)) { try await fake.send(GetBookRequest(id: 4)) }
    }

    @Test("an error stub fails the send with that error, unchanged")
    func error() async {
        let fake = FakeNetwork()
        fake.stub(ListBooksRequest.self, throwing: TestError(code: 42))
        await #expect(throws: TestError(code: 42)) { try await fake.send(ListBooksRequest()) }
    }

    @Test("a raw response is decoded for real by the request")
    func rawResponseDecoded() async throws {
        let fake = FakeNetwork()
        let body = Data(#"[{"id":1,"title":"Dune"},{"id":2,"title":"Emma"}]"#.utf8)
        fake.stub(ListBooksRequest.self, response: NetworkResponse(statusCode: 200, body: body))
        #expect(try await fake.send(ListBooksRequest()) == books)
    }

    @Test("a raw response is decoded with the fake's decoder")
    func rawResponseUsesDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Shelf: Decodable, Equatable, Sendable { let bookCount: Int }
        struct ShelfRequest: Request {
            typealias Response = Shelf
            func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: baseURL) }
        }
        let fake = FakeNetwork(decoder: decoder)
        fake.stub(ShelfRequest.self, response: NetworkResponse(statusCode: 200, body: Data(#"{"book_count":3}"#.utf8)))
        #expect(try await fake.send(ShelfRequest()) == Shelf(bookCount: 3))
    }

    @Test("a raw response of the wrong content type is judged as the real network's would: decoded if it decodes")
    func rawResponseContentTypeChecked() async throws {
        let fake = FakeNetwork()
        let page = Data("<html>sign in</html>".utf8)
        fake.stub(
            ListBooksRequest.self,
            response: NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: page))
        let error = try await #require(throws: NetworkError.self) { try await fake.send(ListBooksRequest()) }
        guard case .unacceptableContentType(let response) = error else {
            Issue.record("expected unacceptableContentType, got \(error)")
            return
        }
        #expect(response.body == page)
        let body = Data(#"[{"id":1,"title":"Dune"}]"#.utf8)
        fake.stub(
            ListBooksRequest.self,
            response: NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: body))
        #expect(try await fake.send(ListBooksRequest()).count == 1)
    }

    @Test("a raw 404 fails with unacceptableStatusCode carrying the body")
    func rawNotFound() async throws {
        struct APIError: Decodable, Equatable { let message: String }
        let fake = FakeNetwork()
        let body = Data(#"{"message":"no such book"}"#.utf8)
        fake.stub(GetBookRequest.self, response: NetworkResponse(statusCode: 404, body: body))
        let error = try await #require(throws: NetworkError.self) { try await fake.send(GetBookRequest(id: 5)) }
        guard case .unacceptableStatusCode(let response) = error else {
            Issue.record("expected unacceptableStatusCode, got \(error)")
            return
        }
        #expect(response.statusCode == 404)
        #expect(response.body == body)
        #expect(error.decodeBody(APIError.self) == APIError(message: "no such book"))
    }

    @Test("a request's own acceptable status codes win over 200..<300")
    func acceptableStatusCodesOverride() async throws {
        let fake = FakeNetwork()
        fake.stub(BookCoverRequest.self, response: NetworkResponse(statusCode: 404))
        let cover = try await fake.send(BookCoverRequest(id: 1))
        #expect(cover == nil)
    }

    @Test("a raw body that does not decode fails with decodingFailed carrying the response")
    func rawUndecodable() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, response: NetworkResponse(statusCode: 200, body: Data("not json".utf8)))
        let error = try await #require(throws: NetworkError.self) { try await fake.send(GetBookRequest(id: 1)) }
        guard case .decodingFailed(let underlying, let response) = error else {
            Issue.record("expected decodingFailed, got \(error)")
            return
        }
        #expect(underlying is DecodingError)
        #expect(response.body == Data("not json".utf8))
    }

    @Test("a new stub for a type replaces the one before it")
    func restubReplaces() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Old"))
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "New"))
        #expect(try await fake.send(GetBookRequest(id: 1)).title == "New")
    }

    @Test("stubs are per request type")
    func stubsArePerType() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"))
        fake.stub(ListBooksRequest.self, throwing: TestError())
        #expect(try await fake.send(GetBookRequest(id: 1)).title == "Dune")
        await #expect(throws: TestError()) { try await fake.send(ListBooksRequest()) }
    }
}
