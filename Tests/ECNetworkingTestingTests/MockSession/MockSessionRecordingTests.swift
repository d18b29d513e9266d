import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("MockSession records requests as they go on the wire")
struct MockSessionRecordingTests {
    @Test("method, final URL with query, action headers and body bytes")
    func recordedRequest() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session)
        network.add(action: AddToken(token: "secret"))
        let request = NetworkRequest(
            method: .put,
            url: testBaseURL.appendingPathComponent("books/1"),
            body: .json(["title": "Dune"]),
            queryItems: [URLQueryItem(name: "notify", value: "a b")]
        )
        _ = try await network.send(request)

        let sent = try #require(session.recordedRequests.first)
        #expect(session.recordedRequests.count == 1)
        #expect(sent.httpMethod == "PUT")
        #expect(sent.url?.absoluteString == "https://api.example.com/v1/books/1?notify=a%20b")
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(sent.httpBody == Data(#"{"title":"Dune"}"#.utf8))
    }

    @Test("an unmatched request fails with noStub naming its method and URL")
    func unmatched() async throws {
        let session = MockSession()
        session.stub(.method(.get), with: MockResponse())
        let network = makeNetwork(session: session)
        let error = try await #require(throws: MockSessionError.self) {
            try await network.send(DeleteBookRequest(id: 3))
        }
        guard case .noStub(let text) = error else {
            Issue.record("expected noStub, got \(error)")
            return
        }
        #expect(text.contains("DELETE https://api.example.com/v1/books/3"))
        #expect(error.description.contains("DELETE https://api.example.com/v1/books/3"))
    }

    @Test("cancelling the task during a delayed stub ends promptly and cancels the session task")
    func cancelDuringDelay() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: Book(id: 1, title: "Dune"), delay: longDelay))
        let network = makeNetwork(session: session)
        let start = ContinuousClock.now
        let task = Task { try await network.send(GetBookRequest(id: 1)) }
        try await waitUntil { session.recordedRequests.count == 1 }
        task.cancel()
        let error = await #expect(throws: NetworkError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(ContinuousClock.now - start < promptBound, "the long delay must not be waited out")
        #expect(session.cancelledRequestCount == 1)
    }
}
