import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("FakeNetwork answers raw NetworkRequests")
struct FakeNetworkRawRequestTests {
    private func request(_ path: String) -> NetworkRequest {
        NetworkRequest(url: testBaseURL.appendingPathComponent(path))
    }

    @Test("the raw stub sees the request and answers it")
    func closureAnswers() async throws {
        let fake = FakeNetwork()
        fake.stubNetworkRequests { request in
            NetworkResponse(statusCode: 200, body: Data(request.url.lastPathComponent.utf8))
        }
        let response = try await fake.send(request("health"))
        #expect(String(decoding: response.body, as: UTF8.self) == "health")
        #expect(response.request?.url.lastPathComponent == "health")
        #expect(fake.sentNetworkRequests.map(\.url.lastPathComponent) == ["health"])
    }

    @Test("a raw status outside 200..<300 fails, unless the request accepts it")
    func validation() async throws {
        let fake = FakeNetwork()
        fake.stubNetworkRequests(with: NetworkResponse(statusCode: 503))
        let error = try await #require(throws: NetworkError.self) { try await fake.send(request("a")) }
        #expect(error.statusCode == 503)

        var accepting = request("b")
        accepting.acceptableStatusCodes = [503]
        #expect(try await fake.send(accepting).statusCode == 503)
    }

    @Test("a raw send without a raw stub fails naming its method and URL")
    func unstubbed() async throws {
        let fake = FakeNetwork()
        let error = try await #require(throws: FakeNetworkError.self) { try await fake.send(request("missing")) }
        #expect(error == .noNetworkRequestStub(method: "GET", url: "https://api.example.com/v1/missing"))
        #expect(error.description.contains("GET https://api.example.com/v1/missing"))
    }

    @Test("a raw stub's delay is cut short by cancellation")
    func delayCancelled() async throws {
        let fake = FakeNetwork()
        fake.stubNetworkRequests(with: NetworkResponse(statusCode: 200), delay: longDelay)
        let start = ContinuousClock.now
        let task = Task { try await fake.send(request("slow")) }
        try await waitUntil { fake.totalSendCount == 1 }
        task.cancel()
        let error = await #expect(throws: NetworkError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(ContinuousClock.now - start < promptBound, "the long delay must not be waited out")
    }
}
