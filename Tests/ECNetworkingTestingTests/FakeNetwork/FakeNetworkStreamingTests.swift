import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

/// An endpoint whose answer a test stubs once and reads streamed or as events.
private struct PricesRequest: Request {
    typealias Response = NetworkResponse

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("prices"))
    }
}

@Suite("FakeNetwork answers streams and event subscriptions from the stub of the request sent")
struct FakeNetworkStreamingTests {
    @Test("stream(_:) and serverSentEvents(_:) of a stubbed type are answered by its response stub")
    func streamsUseTheRequestsStub() async throws {
        let fake = FakeNetwork(baseURL: URL(string: "https://api.example.com/")!)
        let events = NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: Data("data: 42\n\ndata: 43\n\n".utf8)
        )
        fake.stub(PricesRequest.self, with: [.networkResponse(events), .networkResponse(events)])

        let stream = try await fake.stream(PricesRequest())
        #expect(try await stream.collect() == events.body)

        var prices: [String] = []
        for try await event in fake.serverSentEvents(PricesRequest()) {
            prices.append(event.data)
        }
        #expect(prices == ["42", "43"])
    }

    @Test("a value stub cannot be streamed: the error says to stub a response")
    func valueStubsSayWhatToDo() async throws {
        let fake = FakeNetwork(baseURL: URL(string: "https://api.example.com/")!)
        fake.stub(PricesRequest.self, with: NetworkResponse(statusCode: 200))
        // A value stub of a NetworkResponse-typed request is still a value; only `response:` streams.
        await #expect(throws: (any Error).self) {
            _ = try await fake.stream(PricesRequest())
        }
    }
}
