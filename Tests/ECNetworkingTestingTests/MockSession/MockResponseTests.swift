import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("MockResponse builds each kind of answer")
struct MockResponseTests {
    private let book = Book(id: 1, title: "Dune")

    @Test("a status alone: 204 for a Void request, 500 fails validation")
    func statusOnly() async throws {
        let session = MockSession()
        let network = makeNetwork(session: session)
        session.stub(.method(.delete), with: MockResponse(statusCode: 204))
        try await network.send(DeleteBookRequest(id: 1))

        session.stub(.method(.get), with: MockResponse(statusCode: 500))
        let error = try await #require(throws: NetworkError.self) { try await network.send(GetBookRequest(id: 1)) }
        #expect(error.statusCode == 500)
    }

    @Test("json: an Encodable value, sent with Content-Type application/json")
    func jsonEncodable() async throws {
        let session = MockSession()
        let network = makeNetwork(session: session)
        session.stub(with: MockResponse(statusCode: 201, json: book))
        #expect(try await network.send(GetBookRequest(id: 1)) == book)

        let raw = try await network.send(NetworkRequest(url: testBaseURL))
        #expect(raw.statusCode == 201)
        #expect(raw.headers["content-type"] == "application/json")
    }

    @Test("jsonObject: a dictionary or array")
    func jsonObject() async throws {
        let session = MockSession()
        let network = makeNetwork(session: session)
        session.stub(.path("/v1/books/1"), with: MockResponse(jsonObject: ["id": 1, "title": "Dune"]))
        session.stub(.path("/v1/books"), with: MockResponse(jsonObject: [["id": 1, "title": "Dune"]]))
        #expect(try await network.send(GetBookRequest(id: 1)) == book)
        #expect(try await network.send(ListBooksRequest()) == [book])
    }

    @Test("jsonObject that is not JSON answers with invalidJSONObject")
    func invalidJSONObject() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: "just a string"))
        let error = try await #require(throws: MockSessionError.self) {
            try await makeNetwork(session: session).send(GetBookRequest(id: 1))
        }
        #expect(error == .invalidJSONObject("just a string"))
    }

    @Test("data and headers arrive as given, headers read in any case")
    func dataAndHeaders() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 202, data: Data("hello".utf8), headers: ["ETag": "v7"]))
        let response = try await makeNetwork(session: session).send(NetworkRequest(url: testBaseURL))
        #expect(response.statusCode == 202)
        #expect(response.body == Data("hello".utf8))
        #expect(response.headers["etag"] == "v7")
    }

    @Test("a URLError stub fails the send with NetworkError.transport carrying it")
    func transportError() async throws {
        let session = MockSession()
        session.stub(.path("/v1/books/1"), with: .failure(.notConnectedToInternet))
        session.stub(.path("/v1/books/2"), with: MockResponse(failure: URLError(.timedOut)))
        let network = makeNetwork(session: session)

        let first = try await #require(throws: NetworkError.self) { try await network.send(GetBookRequest(id: 1)) }
        guard case .transport(let offline) = first else {
            Issue.record("expected transport, got \(first)")
            return
        }
        #expect(offline.code == .notConnectedToInternet)

        let second = try await #require(throws: NetworkError.self) { try await network.send(GetBookRequest(id: 2)) }
        guard case .transport(let timedOut) = second else {
            Issue.record("expected transport, got \(second)")
            return
        }
        #expect(timedOut.code == .timedOut)
    }

    @Test("a body that breaks: a stream reads the bytes, then the error; a gathered send fails with it")
    func brokenBody() async throws {
        let session = MockSession()
        let network = makeNetwork(session: session)
        let half = Data(repeating: 0x61, count: 1_000)
        session.stub(
            with: MockResponse(
                statusCode: 200, data: half, headers: ["ETag": "\"v1\""], breakingWith: URLError(.networkConnectionLost)
            ))
        let stream = try await network.stream(NetworkRequest(url: testBaseURL))
        #expect(stream.statusCode == 200)
        var received = Data()
        let error = await #expect(throws: NetworkError.self) {
            for try await chunk in stream { received.append(chunk) }
        }
        #expect(received == half)
        guard case .transport(let urlError)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
        await #expect(throws: NetworkError.self) { try await network.send(NetworkRequest(url: testBaseURL)) }

        // The bytes before the break still count against the size limit.
        var limited = NetworkConfiguration(baseURL: testBaseURL)
        limited.maximumResponseSize = 500
        let limitedNetwork = URLSessionNetwork(configuration: limited, session: session)
        let tooLarge = await #expect(throws: NetworkError.self) {
            _ = try await limitedNetwork.stream(NetworkRequest(url: testBaseURL))
        }
        guard case .responseTooLarge(limit: 500)? = tooLarge else {
            Issue.record("expected responseTooLarge, got \(String(describing: tooLarge))")
            return
        }
    }

    /// A `Session` says nothing of the bytes it sends, so a send over one (a `MockSession`, or a
    /// `URLSession` passed in) hears of its upload once, whole, when the answer comes: an app's
    /// progress UI reaches 100 % in tests too, and a send that fails reports nothing sent.
    @Test("a send over a session reports its body's upload once, whole, when the answer comes")
    func uploadProgress() async throws {
        let session = MockSession()
        let network = makeNetwork(session: session)
        let reports = Log<TransferProgress>()
        session.stub(.method(.post), with: MockResponse(json: book))
        _ = try await network.send(
            CreateBookRequest(title: "Dune"), progress: TransferProgressHandler { reports.append($0) })
        let uploads = reports.all.filter { $0.direction == .upload }
        // The JSON body, {"title":"Dune"}, whole.
        #expect(uploads.map(\.completedByteCount) == [16])
        #expect(uploads.first?.expectedByteCount == 16)

        let failing = MockSession()
        failing.stub(.method(.post), with: .failure(.networkConnectionLost))
        let failed = Log<TransferProgress>()
        _ = try? await makeNetwork(session: failing).send(
            CreateBookRequest(title: "Dune"), progress: TransferProgressHandler { failed.append($0) })
        #expect(failed.all.filter { $0.direction == .upload }.isEmpty)
    }

    @Test("a stub's delay holds its answer back")
    func delay() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: book, delay: .milliseconds(200)))
        let start = ContinuousClock.now
        _ = try await makeNetwork(session: session).send(GetBookRequest(id: 1))
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }
}
