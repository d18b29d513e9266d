import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private enum RequiresAuthenticationKey: CustomPropertyKey {
    static let defaultValue = true
}

private enum TagsKey: CustomPropertyKey {
    static let defaultValue: [String] = []
}

private enum RetryBudgetKey: CustomPropertyKey {
    static let defaultValue = 3
}

/// Keeps the last custom properties a will-begin action saw.
private final class PropertiesCapture: @unchecked Sendable {
    // Safe because `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: [CustomProperties] = []

    func append(_ properties: CustomProperties) {
        lock.withLock { stored.append(properties) }
    }

    var all: [CustomProperties] {
        lock.withLock { stored }
    }
}

/// A will-begin action that records the request's custom properties and, like ECNetworking's
/// authentication action, adds a header only when `requiresAuthentication` is true.
private struct CapturingAuthenticationAction: RequestWillBeginAction {
    let capture: PropertiesCapture

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        capture.append(request.customProperties)
        var request = request
        if request.customProperties["requiresAuthentication"] as? Bool ?? false {
            request.headers["Authorization"] = "Bearer token"
        }
        return request
    }
}

/// A will-begin action that writes a typed property for later actions.
private struct TaggingAction: RequestWillBeginAction {
    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.customProperties[TagsKey.self] = request.customProperties[TagsKey.self] + ["tagged"]
        return request
    }
}

/// A request whose built NetworkRequest and whose own `customProperties` overlap.
private struct OverlappingPropertiesRequest: Request {
    typealias Response = Void

    var customProperties: CustomProperties {
        var properties: CustomProperties = ["shared": "request", "requestOnly": 2]
        properties[RetryBudgetKey.self] = 7
        return properties
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var properties: CustomProperties = ["shared": "built", "builtOnly": 1]
        properties[RetryBudgetKey.self] = 1
        properties[TagsKey.self] = ["from-build"]
        return NetworkRequest(url: baseURL.appendingPathComponent("x"), customProperties: properties)
    }
}

/// ECNetworking's pattern: a request says whether it requires authentication.
private struct AuthenticatedRequest: Request {
    typealias Response = Void
    let requiresAuthentication: Bool

    var customProperties: CustomProperties {
        ["requiresAuthentication": requiresAuthentication]
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("me"))
    }
}

@Suite("CustomProperties")
struct CustomPropertiesTests {
    // MARK: - Dictionary shape

    @Test("String keys keep ECNetworking's dictionary shape")
    func dictionaryShape() {
        var properties: CustomProperties = ["requiresAuthentication": true, "retries": 2]
        #expect(properties["requiresAuthentication"] as? Bool == true)
        #expect(properties["retries"] as? Int == 2)
        #expect(properties["retries"] as? String == nil)
        #expect(properties["missing"] == nil)
        #expect(properties.count == 2)

        properties["requiresAuthentication"] = false
        #expect(properties["requiresAuthentication"] as? Bool == false)
        properties["retries"] = nil
        #expect(properties["retries"] == nil)
        #expect(properties.count == 1)
    }

    @Test("A repeated key in a literal keeps the last value")
    func repeatedLiteralKey() {
        let properties: CustomProperties = ["key": 1, "key": 2]
        #expect(properties["key"] as? Int == 2)
        #expect(properties.count == 1)
    }

    @Test("Properties can be created from a dictionary")
    func fromDictionary() {
        let dictionary: [String: any Sendable] = ["a": "x", "b": 5]
        let properties = CustomProperties(dictionary)
        #expect(properties["a"] as? String == "x")
        #expect(properties["b"] as? Int == 5)
        #expect(properties.count == 2)
        #expect(CustomProperties().isEmpty)
        #expect(!properties.isEmpty)
    }

    // MARK: - Typed keys

    @Test("A typed key reads its default until set")
    func typedKeyDefaults() {
        var properties = CustomProperties()
        #expect(properties[RequiresAuthenticationKey.self] == true)
        #expect(properties[TagsKey.self] == [])
        #expect(properties[RetryBudgetKey.self] == 3)
        #expect(properties.isEmpty)

        properties[RequiresAuthenticationKey.self] = false
        properties[TagsKey.self] = ["a", "b"]
        #expect(properties[RequiresAuthenticationKey.self] == false)
        #expect(properties[TagsKey.self] == ["a", "b"])
        #expect(properties[RetryBudgetKey.self] == 3)
        #expect(properties.count == 2)
    }

    @Test("contains tells a set value from the default, even when the value equals the default")
    func containsTypedKey() {
        var properties = CustomProperties()
        #expect(!properties.contains(RequiresAuthenticationKey.self))
        properties[RequiresAuthenticationKey.self] = true
        #expect(properties.contains(RequiresAuthenticationKey.self))
        #expect(!properties.contains(TagsKey.self))
    }

    @Test("Typed keys and string keys do not collide")
    func typedAndStringKeysAreSeparate() {
        var properties: CustomProperties = ["RequiresAuthenticationKey": false]
        #expect(!properties.contains(RequiresAuthenticationKey.self))
        #expect(properties[RequiresAuthenticationKey.self] == true)
        properties[RetryBudgetKey.self] = 9
        #expect(properties["RetryBudgetKey"] == nil)
        #expect(properties.count == 2)
    }

    // MARK: - Merge

    @Test("merge replaces values under the same key and keeps the others")
    func mergePrecedence() {
        var base: CustomProperties = ["shared": "base", "baseOnly": 1]
        base[RetryBudgetKey.self] = 1
        var other: CustomProperties = ["shared": "other", "otherOnly": 2]
        other[RetryBudgetKey.self] = 2
        other[TagsKey.self] = ["t"]

        base.merge(other)

        #expect(base["shared"] as? String == "other")
        #expect(base["baseOnly"] as? Int == 1)
        #expect(base["otherOnly"] as? Int == 2)
        #expect(base[RetryBudgetKey.self] == 2)
        #expect(base[TagsKey.self] == ["t"])
        #expect(base.count == 5)

        base.merge(CustomProperties())
        #expect(base.count == 5)
    }

    // MARK: - Through the network

    @Test("A Request's customProperties are merged over the built request's before the actions run")
    func requestPropertiesMergedOverBuiltOnes() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
        let capture = PropertiesCapture()
        network.add(action: CapturingAuthenticationAction(capture: capture))

        try await network.send(OverlappingPropertiesRequest())

        let seen = try #require(capture.all.first)
        #expect(capture.all.count == 1)
        #expect(seen["shared"] as? String == "request")
        #expect(seen["builtOnly"] as? Int == 1)
        #expect(seen["requestOnly"] as? Int == 2)
        #expect(seen[RetryBudgetKey.self] == 7)
        #expect(seen[TagsKey.self] == ["from-build"])
        // The five above, and the base URL the network notes on every request.
        #expect(seen[NetworkBaseURL.self] == testBaseURL)
        #expect(seen.count == 6)
    }

    @Test("An action reads requiresAuthentication as? Bool, as ECNetworking actions do", arguments: [true, false])
    func requiresAuthenticationDrivesAnAction(requiresAuthentication: Bool) async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
        let capture = PropertiesCapture()
        network.add(action: CapturingAuthenticationAction(capture: capture))

        try await network.send(AuthenticatedRequest(requiresAuthentication: requiresAuthentication))

        #expect(capture.all.first?["requiresAuthentication"] as? Bool == requiresAuthentication)
        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.value(forHTTPHeaderField: "Authorization") == (requiresAuthentication ? "Bearer token" : nil))
    }

    @Test("A property one action writes is seen by the next action")
    func propertiesFlowBetweenActions() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
        let capture = PropertiesCapture()
        network.add(action: TaggingAction())
        network.add(action: CapturingAuthenticationAction(capture: capture))

        try await network.send(OverlappingPropertiesRequest())

        #expect(capture.all.first?[TagsKey.self] == ["from-build", "tagged"])
    }

    @Test("A raw NetworkRequest's properties reach the actions unchanged")
    func rawRequestProperties() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
        let capture = PropertiesCapture()
        network.add(action: CapturingAuthenticationAction(capture: capture))

        var request = NetworkRequest(
            url: testBaseURL.appendingPathComponent("x"), customProperties: ["requiresAuthentication": true])
        request.customProperties[RetryBudgetKey.self] = 0
        _ = try await network.send(request)

        let seen = try #require(capture.all.first)
        #expect(seen["requiresAuthentication"] as? Bool == true)
        #expect(seen[RetryBudgetKey.self] == 0)
        #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer token")
    }
}
