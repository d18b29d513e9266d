import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("maximumResponseSize with any session")
struct ResponseSizeLimitTests {
    @Test("a body over the limit fails with responseTooLarge; one at the limit passes")
    func limit() async throws {
        let session = MockSession()
        session.stub(.path("/v1/big"), with: MockResponse(data: Data(count: 2_000)))
        session.stub(.path("/v1/exact"), with: MockResponse(data: Data(count: 1_000)))
        let network = makeNetwork(session: session) { $0.maximumResponseSize = 1_000 }

        do {
            _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("big")))
            Issue.record("expected responseTooLarge")
        } catch NetworkError.responseTooLarge(let limit) {
            #expect(limit == 1_000)
        }
        let exact = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("exact")))
        #expect(exact.body.count == 1_000)
    }
}
