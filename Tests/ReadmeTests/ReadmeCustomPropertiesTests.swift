import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

// The custom properties snippets of Modelling Requests, verbatim, and a test that an action reads
// what a request declared.

enum AnalyticsName: CustomPropertyKey {
    static let defaultValue = "unnamed"
}

struct ServiceStatus: Codable, Sendable {
    let healthy: Bool
}

struct ServiceStatusRequest: Request {
    typealias Response = ServiceStatus

    var customProperties: CustomProperties {
        var properties = CustomProperties()
        properties[RequiresAuthentication.self] = false
        properties[AnalyticsName.self] = "status"
        return properties
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("status"))
    }
}

struct AnalyticsAction: RequestBeganAction {
    let analytics: any Analytics

    func requestBegan(_ request: NetworkRequest) {
        analytics.track(request.customProperties[AnalyticsName.self], properties: ["path": request.url.path])
    }
}

private struct TrackedEvents: Analytics {
    let events = Log<String>()

    func track(_ event: String, properties: [String: String]) {
        events.append("\(event) \(properties["path"] ?? "?")")
    }
}

@Suite("Articles: custom properties reach the actions")
struct ReadmeCustomPropertiesTests {
    @Test("an action reads a request's typed property, and the default when the request sets none")
    func actionsReadTheProperties() async throws {
        let session = MockSession()
        session.stub(.path("/status"), with: MockResponse(json: ServiceStatus(healthy: true)))
        session.stub(.path("/users"), with: MockResponse(jsonObject: [[String: Any]]()))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let analytics = TrackedEvents()
        network.add(action: AnalyticsAction(analytics: analytics))
        let requiresAuthentication = Log<Bool>()
        network.add(
            action: WillBegin { request in
                requiresAuthentication.append(request.customProperties[RequiresAuthentication.self])
                return request
            })

        let status = try await network.send(ServiceStatusRequest())
        _ = try await network.send(ListUsersRequest(online: true))

        #expect(status.healthy)
        #expect(analytics.events.all == ["status /status", "unnamed /users"])
        #expect(requiresAuthentication.all == [false, true])
    }
}
