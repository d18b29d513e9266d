import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

protocol Analytics: Sendable {
    func track(_ event: String, properties: [String: String])
}

struct FailureAnalyticsAction: RequestFailedAction {
    let analytics: any Analytics

    func requestFailed(_ request: NetworkRequest, error: any Error) {
        if let error = error as? NetworkError, error.isCancellation { return }
        let status = (error as? NetworkError)?.response.map { String($0.statusCode) } ?? "none"
        analytics.track("request_failed", properties: ["path": request.url.path, "status": status])
    }
}

private struct RecordedAnalytics: Analytics {
    let events = Log<String>()

    func track(_ event: String, properties: [String: String]) {
        events.append("\(event) \(properties["path"] ?? "?") \(properties["status"] ?? "?")")
    }
}

@Suite("README: a failure action for analytics")
struct ReadmeFailureActionTests {
    @Test("the README's failure action tracks a failed status and a transport error, not a success")
    func failureAnalytics() async throws {
        let session = MockSession()
        session.stub(.pathSuffix("ok"), with: MockResponse(statusCode: 200))
        session.stub(.pathSuffix("gone"), with: MockResponse(statusCode: 410))
        session.stub(.pathSuffix("offline"), with: .failure(.notConnectedToInternet))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let analytics = RecordedAnalytics()
        network.add(action: FailureAnalyticsAction(analytics: analytics))

        for path in ["ok", "gone", "offline"] {
            _ = try? await network.send(NetworkRequest(url: URL(string: "https://api.example.com/\(path)")!))
        }

        #expect(analytics.events.all == ["request_failed /gone 410", "request_failed /offline none"])
    }
}
