import ECNetworking
import Foundation
import TestSupport
import Testing

/// The cookie snippet of the Configuration and Logging article, against a real server.
@Suite("Configuration article: cookies")
struct ReadmeCookiesTests {
    @Test("networks configured with one jar share its cookies; removeAll signs them out")
    func sharedJar() async throws {
        let server = try LoopbackHTTPServer { request in
            if request.path == "/login" {
                return .response(status: 200, headers: ["Set-Cookie": "session=s1; Path=/; HttpOnly"])
            }
            return .response(status: 200, body: Data((request.header("Cookie") ?? "").utf8))
        }
        defer { server.stop() }

        let jar = CookieJar()
        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
        configuration.cookieStorage = .jar(jar)
        configuration.baseURL = server.baseURL
        let first = URLSessionNetwork(configuration: configuration)
        let second = URLSessionNetwork(configuration: configuration)
        defer {
            first.invalidate()
            second.invalidate()
        }

        _ = try await first.send(NetworkRequest(url: server.baseURL.appendingPathComponent("login")))
        let seen = try await second.send(NetworkRequest(url: server.baseURL.appendingPathComponent("me"))).body
        #expect(String(decoding: seen, as: UTF8.self) == "session=s1")
        jar.removeAll()
        let afterLogout = try await second.send(NetworkRequest(url: server.baseURL.appendingPathComponent("me"))).body
        #expect(afterLogout.isEmpty)
    }
}
