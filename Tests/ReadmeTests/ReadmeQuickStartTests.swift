import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

// The README's snippets, verbatim (ReadmeSnippetsTests checks that each README block appears in
// a compiled file). Declarations sit at file scope; statements sit in the test functions.

struct User: Codable, Sendable {
    let id: Int
    let name: String
}

struct ListUsersRequest: Request {
    typealias Response = [User]
    let online: Bool

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
        request.queryItems = [URLQueryItem(name: "online", value: String(online))]
        return request
    }
}

struct CreateUserRequest: Request {
    typealias Response = User
    let name: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("users"), body: ["name": name])
    }
}

struct DeleteUserRequest: Request {
    typealias Response = Void
    let id: Int

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        guard id > 0 else { throw NetworkError.invalidRequest(reason: "user ids start at 1") }
        return NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("users/\(id)"))
    }
}

struct UserAvatarRequest: Request {
    typealias Response = Data
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users/\(id)/avatar"))
    }
}

struct Page<Item: Decodable & Sendable>: Sendable {
    let items: [Item]
    let nextPage: URL?
}

struct ListUsersPageRequest: Request {
    typealias Response = Page<User>

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Page<User> {
        let items = try decoder.decode([User].self, from: response.body)
        let next = response.headers["Link"].flatMap { URL(string: $0) }
        return Page(items: items, nextPage: next)
    }
}

struct SearchRequest: Request {
    typealias Response = [User]
    let text: String
    let tags: [String]

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("search"))
        try request.addQueryParameters(["q": text, "tag": tags, "limit": 20])
        request.headers["Accept-Language"] = "en"
        request.timeout = .seconds(5)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }
}

struct UploadRequest: Request {
    typealias Response = Void
    let photo: Data

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .put,
            url: baseURL.appendingPathComponent("photo"),
            body: .data(photo, contentType: "image/jpeg"))
    }
}

struct SignInFormRequest: Request {
    typealias Response = Void

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("session"),
            body: .form(["user": "ada", "password": "p&ss=word"]))
    }
}

@Suite("README: quick start and modelling requests")
struct ReadmeQuickStartTests {
    let session = MockSession()

    init() {
        session.stub(.method(.get) && .path("/users"), with: MockResponse(jsonObject: [["id": 1, "name": "Ada"]]))
        session.stub(
            .method(.post) && .path("/users"),
            with: MockResponse(statusCode: 201, jsonObject: ["id": 2, "name": "Grace"]))
        session.stub(.method(.delete), with: MockResponse(statusCode: 204))
        session.stub(.path("/users/1/avatar"), with: MockResponse(data: Data([1, 2, 3])))
        session.stub(.path("/search"), with: MockResponse(jsonObject: [[String: Any]]()))
        session.stub(.path("/photo"), with: MockResponse(statusCode: 204))
        session.stub(.path("/session"), with: MockResponse(statusCode: 204))
    }

    @Test("a network over a real URLSession keeps its configuration")
    func realNetwork() {
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL))
        #expect(network.configuration.baseURL == baseURL)
    }

    @Test("the quick start sends typed requests")
    func quickStart() async throws {
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)

        let users = try await network.send(ListUsersRequest(online: true))
        let created = try await network.send(CreateUserRequest(name: "Grace"))
        try await network.send(DeleteUserRequest(id: created.id))
        let avatar = try await network.send(UserAvatarRequest(id: 1))

        #expect(users.map(\.name) == ["Ada"])
        #expect(created.id == 2)
        #expect(avatar == Data([1, 2, 3]))
        #expect(session.recordedRequests.first?.url?.query == "online=true")
        await #expect(throws: NetworkError.self) { try await network.send(DeleteUserRequest(id: 0)) }
    }

    @Test("requests with queries, bodies and forms are encoded as the README says")
    func modelling() async throws {
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)

        _ = try await network.send(SearchRequest(text: "ada lovelace", tags: ["math", "c&s"]))
        try await network.send(UploadRequest(photo: Data([0xFF, 0xD8])))
        try await network.send(SignInFormRequest())

        let recorded = session.recordedRequests
        #expect(recorded[0].url?.query == "limit=20&q=ada%20lovelace&tag=math&tag=c%26s")
        #expect(recorded[1].value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(String(decoding: recorded[2].httpBody ?? Data(), as: UTF8.self) == "password=p%26ss%3Dword&user=ada")
    }
}
