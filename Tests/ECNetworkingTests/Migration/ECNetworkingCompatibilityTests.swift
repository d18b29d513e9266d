import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

// The snippets of ECNetworking's README, with only mechanical changes: `customProperties` is
// `CustomProperties` (its values must be Sendable), models are `Sendable`, and the network is
// `URLSessionNetwork`. If these stop compiling, code written for ECNetworking breaks.

private struct LegacyUser: Codable, Sendable, Equatable {
    let name: String
}

private struct ListUsersRequest: Encodable {
    let online: Bool
}

extension ListUsersRequest: Request {
    typealias Response = [LegacyUser]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        let url = baseURL.appendingPathComponent("users")
        return .init(method: .post, url: url, body: self)
    }
}

private protocol MyRequest: Request {
    var requiresAuthentication: Bool { get }
}

extension MyRequest {
    var requiresAuthentication: Bool { true }

    var customProperties: CustomProperties {
        ["requiresAuthentication": requiresAuthentication]
    }
}

extension NetworkRequest {
    fileprivate var requiresAuthentication: Bool {
        customProperties["requiresAuthentication"] as? Bool ?? false
    }
}

private struct LoginRequest: Encodable {
    let username: String
    let password: String
}

extension LoginRequest: MyRequest {
    typealias Response = Void
    var requiresAuthentication: Bool { false }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .post, url: baseURL.appendingPathComponent("login"), body: self)
    }
}

private struct ProfileRequest: MyRequest {
    typealias Response = LegacyUser

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .get, url: baseURL.appendingPathComponent("me"))
    }
}

private struct AuthenticationAction: RequestWillBeginAction {
    let token: String

    func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
        guard request.requiresAuthentication else {
            completion(.success(request))
            return
        }
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        completion(.success(request))
    }
}

@Suite("Code written for ECNetworking")
struct ECNetworkingCompatibilityTests {
    @Test("the README's requests, custom properties and AuthenticationAction work unchanged")
    func readmeSnippets() async throws {
        let session = MockSession()
        session.stub(.path("/v1/users"), with: MockResponse(jsonObject: [["name": "Ada"]]))
        session.stub(.path("/v1/login"), with: MockResponse(statusCode: 204))
        session.stub(.path("/v1/me"), with: MockResponse(json: LegacyUser(name: "Me")))
        let configuration = NetworkConfiguration(baseURL: testBaseURL, logging: false)
        let network = URLSessionNetwork(configuration: configuration, session: session)
        network.add(action: AuthenticationAction(token: "t0ken"))

        let users: [LegacyUser] = try await withCheckedThrowingContinuation { continuation in
            network.send(ListUsersRequest(online: true)) { result in
                switch result {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(let response): continuation.resume(returning: response)
                }
            }
        }
        try await network.send(LoginRequest(username: "demo", password: "secret"))
        let me = try await network.send(ProfileRequest())

        #expect(users == [LegacyUser(name: "Ada")])
        #expect(me == LegacyUser(name: "Me"))
        let recorded = session.recordedRequests
        #expect(recorded.count == 3)
        #expect(recorded[0].httpMethod == "POST")
        #expect(String(decoding: recorded[0].httpBody ?? Data(), as: UTF8.self) == #"{"online":true}"#)
        // ListUsersRequest conforms to plain Request, so it carries no requiresAuthentication property.
        #expect(recorded[0].value(forHTTPHeaderField: "Authorization") == nil)
        #expect(recorded[1].value(forHTTPHeaderField: "Authorization") == nil)
        #expect(recorded[2].value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
    }

    @Test("the typed-key form of custom properties needs no casts")
    func typedKeys() {
        enum RequiresAuthentication: CustomPropertyKey {
            static let defaultValue = true
        }
        var request = NetworkRequest(url: testBaseURL)
        #expect(request.customProperties[RequiresAuthentication.self])
        request.customProperties[RequiresAuthentication.self] = false
        #expect(!request.customProperties[RequiresAuthentication.self])
    }
}
