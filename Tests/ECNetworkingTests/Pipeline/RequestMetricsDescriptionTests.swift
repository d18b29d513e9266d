import ECNetworking
import Foundation
import Testing

@Suite("Descriptions of metrics hide secrets")
struct RequestMetricsDescriptionTests {
    @Test("metrics show the method, URL without secrets, status, attempts and timings")
    func metrics() {
        let metrics = RequestMetrics(
            request: Planted.request,
            statusCode: 401,
            attempts: 2,
            timings: NetworkTimings(transport: .milliseconds(12), total: .milliseconds(15)),
            error: NetworkError.unacceptableStatusCode(Planted.response))
        let texts = renderings(of: metrics)

        expectNoSecrets(in: texts, Planted.coveredByDefaults)
        for text in texts.values {
            #expect(text.contains("POST"))
            #expect(text.contains("api.example.com/v1/login"))
            #expect(text.contains("401"))
        }
    }
}
