import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct GetUser: Request {
    typealias Response = User

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users/1"))
    }
}

private struct DeleteUserRequest: Request {
    typealias Response = Void

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("users/1"))
    }
}

private struct DownloadRequest: Request {
    typealias Response = Data

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("file"))
    }
}

private struct TextRequest: Request {
    typealias Response = String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("readme"))
    }
}

private struct Profile: Decodable, Equatable, Sendable {
    var firstName: String
    var lastSeenAt: Date
}

private struct GetProfile: Request {
    typealias Response = Profile

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("profile"))
    }
}

/// A page of users whose total comes from a header and whose status is kept.
private struct UserPage: Equatable, Sendable {
    var users: [User]
    var total: Int
    var statusCode: Int
}

private struct ListUsersPage: Request {
    struct MissingTotal: Error {}

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> UserPage {
        guard let total = response.headers["x-total-count"].flatMap({ Int($0) }) else { throw MissingTotal() }
        return UserPage(
            users: try decoder.decode([User].self, from: response.body), total: total,
            statusCode: response.statusCode)
    }
}

/// A request whose custom decoding throws a NetworkError of its own.
private struct ThrowsNetworkErrorRequest: Request {
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("x"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Int {
        throw NetworkError.invalidResponse
    }
}

private func makeDecodingNetwork(
    _ response: MockResponse,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> URLSessionNetwork {
    makeStubbedNetwork(answering: response, configure: configure).0
}

/// Sends `request`, which must fail with `decodingFailed`, and returns its error and response.
private func decodingFailure<R: Request>(
    _ request: R,
    through network: URLSessionNetwork,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (error: any Error, response: NetworkResponse)? {
    let error = try await #require(throws: NetworkError.self, sourceLocation: sourceLocation) {
        _ = try await network.send(request)
    }
    guard case .decodingFailed(let underlying, let response) = error else {
        Issue.record("Expected decodingFailed, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return (underlying, response)
}

@Suite("Response decoding")
struct ResponseDecodingTests {
    // MARK: - Decodable

    @Test("A Decodable response is decoded from JSON")
    func decodable() async throws {
        let network = makeDecodingNetwork(MockResponse(json: User(id: 7, name: "Ada")))
        #expect(try await network.send(GetUser()) == User(id: 7, name: "Ada"))
    }

    @Test("A Decodable response uses the configuration's decoder")
    func configurationDecoder() async throws {
        let network = makeDecodingNetwork(
            MockResponse(data: Data(#"{"first_name":"Ada","last_seen_at":"2024-05-01T12:00:00Z"}"#.utf8))
        ) {
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.decoder.dateDecodingStrategy = .iso8601
        }
        let profile = try await network.send(GetProfile())
        #expect(profile.firstName == "Ada")
        #expect(profile.lastSeenAt == Date(timeIntervalSince1970: 1_714_564_800))
    }

    @Test(
        "A Decodable response with a body that is not the JSON expected fails with decodingFailed carrying the body",
        arguments: [
            "garbage, not JSON", #"{"id": 1, "na"#, #"{"id": 1}"#, #"{"id": "one", "name": "Ada"}"#, "",
        ]
    )
    func undecodableBody(body: String) async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 200, data: Data(body.utf8)))
        let failure = try await decodingFailure(GetUser(), through: network)
        #expect(failure?.error is DecodingError)
        #expect(failure?.response.body == Data(body.utf8))
        #expect(failure?.response.statusCode == 200)
    }

    @Test("An unacceptable status is reported as such, not as a decoding failure")
    func statusIsValidatedBeforeDecoding() async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 404, data: Data("not found".utf8)))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(GetUser())
        }
        guard case .unacceptableStatusCode(let response) = error else {
            Issue.record("Expected unacceptableStatusCode, got \(error)")
            return
        }
        #expect(response.statusCode == 404)
    }

    // MARK: - Void

    @Test("A Void response succeeds with an empty 200, a 204 and a body it ignores", arguments: [200, 204, 202])
    func voidResponse(statusCode: Int) async throws {
        let body = statusCode == 202 ? Data("not json at all".utf8) : Data()
        let network = makeDecodingNetwork(MockResponse(statusCode: statusCode, data: body))
        try await network.send(DeleteUserRequest())
    }

    // MARK: - Data

    @Test("A Data response is the body byte for byte")
    func dataResponse() async throws {
        let bytes = Data([0x00, 0xFF, 0xFE, 0x7B, 0x0A, 0x80])
        let network = makeDecodingNetwork(MockResponse(data: bytes))
        #expect(try await network.send(DownloadRequest()) == bytes)
    }

    @Test("A Data response can be empty")
    func emptyDataResponse() async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 200))
        #expect(try await network.send(DownloadRequest()).isEmpty)
    }

    // MARK: - String

    @Test("A String response is the body read as UTF-8")
    func stringResponse() async throws {
        let text = "héllo 日本 😀\nsecond line"
        let network = makeDecodingNetwork(MockResponse(data: Data(text.utf8)))
        #expect(try await network.send(TextRequest()) == text)
    }

    @Test("A String response from invalid UTF-8 fails with decodingFailed(ResponseDecodingError.invalidText)")
    func invalidUTF8() async throws {
        let bytes = Data([0x61, 0xFF, 0xFE, 0xC3])
        let network = makeDecodingNetwork(MockResponse(data: bytes))
        let failure = try await decodingFailure(TextRequest(), through: network)
        #expect(failure?.error as? ResponseDecodingError == .invalidText)
        #expect(failure?.response.body == bytes)
    }

    // MARK: - Custom decoding

    @Test("A custom response(from:with:) can read headers and the status code")
    func customDecoding() async throws {
        let users = [User(id: 1, name: "Ada"), User(id: 2, name: "Grace")]
        let network = makeDecodingNetwork(MockResponse(statusCode: 206, json: users, headers: ["X-Total-Count": "42"]))
        let page = try await network.send(ListUsersPage())
        #expect(page == UserPage(users: users, total: 42, statusCode: 206))
    }

    @Test("An error thrown by custom decoding becomes decodingFailed carrying it and the response")
    func customDecodingError() async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 200, json: [User(id: 1, name: "Ada")]))
        let failure = try await decodingFailure(ListUsersPage(), through: network)
        #expect(failure?.error is ListUsersPage.MissingTotal)
        #expect(failure?.response.statusCode == 200)
        #expect(failure?.response.headers["content-type"] == "application/json")
    }

    @Test("A NetworkError thrown by custom decoding passes through unchanged")
    func customDecodingNetworkError() async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 200))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(ThrowsNetworkErrorRequest())
        }
        guard case .invalidResponse = error else {
            Issue.record("Expected invalidResponse, got \(error)")
            return
        }
    }

    // MARK: - NetworkResponse

    @Test("A raw send returns the response with its request, body and data alias")
    func rawResponse() async throws {
        let network = makeDecodingNetwork(MockResponse(statusCode: 201, json: User(id: 3, name: "Lin")))
        let response = try await network.send(
            NetworkRequest(method: .post, url: testBaseURL.appendingPathComponent("users"), body: .json(["a": 1])))
        #expect(response.statusCode == 201)
        #expect(response.isSuccessful)
        #expect(response.data == response.body)
        #expect(try response.decode(User.self) == User(id: 3, name: "Lin"))
        #expect(response.request?.method == .post)
        #expect(response.request?.headers["Content-Type"] == "application/json")
        #expect(response.url?.absoluteString == "https://api.example.com/v1/users")
    }
}
