import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("MockSession: the stub added last that matches answers")
struct MockSessionPrecedenceTests {
    private func get(_ path: String) -> NetworkRequest {
        NetworkRequest(url: testBaseURL.appendingPathComponent(path))
    }

    @Test("a later, narrower stub wins where it matches; the earlier one answers the rest")
    func lastMatchingWins() async {
        let session = MockSession()
        let network = makeNetwork(session: session)
        session.stub(.any, with: named("general"))
        session.stub(.path("/v1/books"), with: named("books"))
        #expect(await network.answer(get("books")) == "books")
        #expect(await network.answer(get("authors")) == "general")

        session.stub(.any, with: named("override"))
        #expect(await network.answer(get("books")) == "override")
    }

    @Test("a queued list is answered in order, then falls through to the stub below")
    func queueFallsThrough() async {
        let session = MockSession()
        let network = makeNetwork(session: session)
        session.stub(with: named("ok"))
        session.stub(with: [MockResponse(statusCode: 503), MockResponse(statusCode: 503)])
        var answers: [String] = []
        for _ in 0..<3 {
            do {
                answers.append(String(decoding: try await network.send(get("books")).body, as: UTF8.self))
            } catch let error as NetworkError {
                answers.append("\(error.statusCode ?? 0)")
            } catch {
                answers.append("\(error)")
            }
        }
        #expect(answers == ["503", "503", "ok"])
    }

    @Test("503, 503 on top of a 200, with a retry-on-503 action: one send, three requests")
    func retryThroughQueue() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [Book(id: 1, title: "Dune")]))
        session.stub(with: [MockResponse(statusCode: 503), MockResponse(statusCode: 503)])
        let network = makeNetwork(session: session)
        network.add(action: RetryOnStatus(status: 503))

        #expect(try await network.send(ListBooksRequest()) == [Book(id: 1, title: "Dune")])
        #expect(session.recordedRequests.count == 3)
    }
}
