import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

struct Token: Codable, Sendable {
    let token: String
}

struct LoginRequest: Request {
    typealias Response = Token
    let username: String
    let password: String

    var customProperties: CustomProperties {
        var properties = CustomProperties()
        properties[RequiresAuthentication.self] = false
        return properties
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("login"),
            body: ["username": username, "password": password])
    }
}

protocol TokenProvider: Sendable {
    func validToken() async throws -> String
}

struct AuthenticationAction: RequestWillBeginAction {
    let tokens: any TokenProvider

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        guard request.customProperties[RequiresAuthentication.self] else { return request }
        var request = request
        request.headers["Authorization"] = "Bearer \(try await tokens.validToken())"
        return request
    }
}

struct RetryOnServiceUnavailable: ResponseCompletedAction {
    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        guard response.statusCode == 503 else { return .proceed(response) }
        let seconds = response.headers["Retry-After"].flatMap(Int.init) ?? 1
        return .retry(after: .seconds(seconds))
    }
}

struct AppVersionAction: RequestWillBeginAction {
    func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
        var request = request
        request.headers["X-App-Version"] = "2.1"
        completion(.success(request))
    }
}

struct APIError: Decodable {
    let message: String
}

private struct FixedToken: TokenProvider {
    func validToken() async throws -> String { "abc" }
}

private struct ConsoleLogger: Sendable {
    let lines = Log<String>()
    func info(_ line: String) { lines.append(line) }
}

@Suite("README: actions, configuration, errors, cancellation")
struct ReadmeActionsTests {
    let session = MockSession()

    init() {
        session.stub(.path("/login"), with: MockResponse(json: Token(token: "abc")))
        session.stub(.path("/users"), with: MockResponse(jsonObject: [["id": 1, "name": "Ada"]]))
        session.stub(
            .path("/users") && .method(.post),
            with: MockResponse(statusCode: 422, jsonObject: ["message": "name must not be empty"]))
        session.stub(.path("/health"), with: MockResponse(statusCode: 200, headers: ["ETag": "\"v1\""]))
        session.stub(.path("/users/7/avatar"), with: MockResponse(data: Data([7])))
    }

    @Test("the configuration, actions and logging snippets work together")
    func configurationAndActions() async throws {
        let logger = ConsoleLogger()
        let tokens = FixedToken()

        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!, logging: true)
        configuration.logSink = LogSink { line in logger.info("\(line)") }
        configuration.sensitiveData.headers.insert("X-Tenant-Handle")
        configuration.maximumConcurrentRequests = 4
        configuration.defaultHeaders["Accept"] = "application/json"
        configuration.timeout = .seconds(10)
        configuration.decoder.keyDecodingStrategy = .convertFromSnakeCase
        configuration.metricsHandler = { metrics in
            print("\(metrics.request.url.path): \(metrics.timings.total) (decoding \(metrics.timings.decoding))")
        }
        let network = URLSessionNetwork(configuration: configuration, session: session)
        network.add(action: AuthenticationAction(tokens: tokens))
        network.add(action: RetryOnServiceUnavailable())
        network.add(action: AppVersionAction())

        let token = try await network.send(LoginRequest(username: "ada", password: "secret"))
        let users = try await network.send(ListUsersRequest(online: true))

        #expect(token.token == "abc")
        #expect(users.count == 1)
        let recorded = session.recordedRequests
        #expect(recorded[0].value(forHTTPHeaderField: "Authorization") == nil)
        #expect(recorded[1].value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(recorded[1].value(forHTTPHeaderField: "X-App-Version") == "2.1")
        #expect(recorded[1].value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(logger.lines.all.contains { $0.contains("Authorization: <redacted>") })
        #expect(!logger.lines.all.contains { $0.contains("Bearer abc") })
    }

    @Test("the error handling snippet reaches the 422 branch and decodes the API error")
    func errors() async throws {
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        do {
            _ = try await network.send(CreateUserRequest(name: ""))
        } catch let error as NetworkError {
            switch error {
            case .unacceptableStatusCode(let response) where response.statusCode == 422:
                print(error.decodeBody(APIError.self)?.message ?? "invalid input")
            case .transport(let urlError):
                print("offline? \(urlError.code)")
            case .cancelled:
                break
            default:
                print(error.localizedDescription)
            }
        }

        let error = await #expect(throws: NetworkError.self) { try await network.send(CreateUserRequest(name: "")) }
        #expect(error?.statusCode == 422)
        #expect(error?.decodeBody(APIError.self)?.message == "name must not be empty")
    }

    @Test("the cancellation, priority and raw response snippets behave as described")
    func cancellationAndRawResponses() async throws {
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
        let outcome = Log<String>()
        // The two sends cancelled below are still on the wire when cancelled: a mock answers at
        // once, and a send can end before the line after `Task {}` runs.
        let slow = MockResponse(jsonObject: [["id": 1, "name": "Ada"]], delay: .seconds(30))
        session.stub(.path("/users"), with: [slow, slow])

        let task = Task { try await network.send(ListUsersRequest(online: true)) }
        task.cancel()  // the send ends with NetworkError.cancelled, wherever it was

        let cancellable = network.send(ListUsersRequest(online: true)) { result in
            // Called exactly once, also after cancel().
            outcome.append("\(result)")
        }
        cancellable.cancel()

        let avatar = try await network.send(UserAvatarRequest(id: 7), priority: .low)

        let response = try await network.send(NetworkRequest(url: baseURL.appendingPathComponent("health")))
        print(response.statusCode, response.timings.transport, response.headers["etag"] ?? "")

        await #expect(throws: NetworkError.self) { try await task.value }
        #expect(avatar == Data([7]))
        #expect(response.headers["etag"] == "\"v1\"")
        let deadline = ContinuousClock.now + promptBound
        while outcome.all.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(outcome.all.count == 1)
        #expect(outcome.all.first?.contains("cancelled") == true, "\(outcome.all)")
    }
}
