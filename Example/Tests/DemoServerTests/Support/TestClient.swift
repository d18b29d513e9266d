import DemoServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as the tests look at it: status, headers and the whole body.
struct TestResponse {
    let status: Int
    let body: Data
    let httpResponse: HTTPURLResponse

    func header(_ name: String) -> String? {
        httpResponse.value(forHTTPHeaderField: name)
    }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: body)
    }
}

/// Sends requests to a ``DemoServer`` with a plain `URLSession`, the way an app without the library would.
struct TestClient {
    let baseURL: URL
    let session: URLSession
    let timeout: TimeInterval

    /// `followRedirects: false` keeps redirects visible, so tests can look at the `3xx` itself.
    ///
    /// `timeout` is in whole seconds: on Linux `URLSession` truncates it and ignores `URLRequest.timeoutInterval`.
    init(server: DemoServer, followRedirects: Bool = true, timeout: TimeInterval = 10) {
        self.init(baseURL: server.baseURL, followRedirects: followRedirects, timeout: timeout)
    }

    init(baseURL: URL, followRedirects: Bool = true, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        // Above the default so the concurrency tests are limited by the server, not by the client.
        configuration.httpMaximumConnectionsPerHost = 16
        self.session = URLSession(
            configuration: configuration,
            delegate: followRedirects ? nil : RedirectRefusingDelegate(),
            delegateQueue: nil
        )
    }

    func send(
        _ method: String,
        _ pathAndQuery: String,
        headers: [String: String] = [:],
        body: Data? = nil
    ) async throws -> TestResponse {
        guard let url = URL(string: pathAndQuery, relativeTo: baseURL) else {
            throw URLError(.badURL)
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        guard let httpResponse = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return TestResponse(status: httpResponse.statusCode, body: data, httpResponse: httpResponse)
    }

    func get(_ pathAndQuery: String, token: String? = nil) async throws -> TestResponse {
        try await send("GET", pathAndQuery, headers: Self.authorization(token))
    }

    func sendJSON(
        _ method: String,
        _ pathAndQuery: String,
        _ value: some Encodable,
        token: String? = nil
    ) async throws -> TestResponse {
        var headers = Self.authorization(token)
        headers["Content-Type"] = "application/json"
        return try await send(method, pathAndQuery, headers: headers, body: try JSONEncoder().encode(value))
    }

    /// Logs in with the demo credentials and returns the bearer token.
    func logIn(username: String = "demo", password: String = "secret") async throws -> String {
        let response = try await sendJSON("POST", "/login", Credentials(username: username, password: password))
        guard response.status == 200 else {
            throw URLError(.userAuthenticationRequired)
        }
        return try response.decode(Token.self).token
    }

    private static func authorization(_ token: String?) -> [String: String] {
        token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
    }
}

/// Declines every redirect, so the `3xx` response itself reaches the test.
final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
