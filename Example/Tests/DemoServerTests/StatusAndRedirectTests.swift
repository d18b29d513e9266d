import DemoServer
import Foundation
import Testing

@Suite("/status, /redirect and unknown routes")
struct StatusAndRedirectTests {
    @Test(arguments: [400, 403, 409, 429, 500, 502])
    func statusRepliesWithThatStatusAndAJSONError(code: Int) async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/status/\(code)")

            #expect(response.status == code)
            #expect(try response.decode(APIError.self).message.contains("\(code)"))
        }
    }

    @Test func statusNamesTheCodeInTheError() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/status/503")

            #expect(try response.decode(APIError.self).error == "http_503")
        }
    }

    @Test func noContentHasNoBody() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/status/204")

            #expect(response.status == 204)
            #expect(response.body.isEmpty)
        }
    }

    @Test func statusCanAddRetryAfter() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/status/429?retryAfter=7")

            #expect(response.status == 429)
            #expect(response.header("Retry-After") == "7")
        }
    }

    @Test func redirectPointsAnywhere() async throws {
        try await withDemoServer { server, _ in
            let client = TestClient(server: server, followRedirects: false)
            let response = try await client.get("/redirect?to=https%3A%2F%2Fexample.com%2Fpath%3Fq%3D1")

            #expect(response.status == 302)
            #expect(response.header("Location") == "https://example.com/path?q=1")
        }
    }

    @Test func redirectStatusIsSelectable() async throws {
        try await withDemoServer { server, _ in
            let client = TestClient(server: server, followRedirects: false)
            let response = try await client.get("/redirect?to=/echo&status=307")

            #expect(response.status == 307)
            #expect(response.header("Location") == "/echo")
        }
    }

    @Test func followedRedirectArrivesAtTheTarget() async throws {
        try await withDemoServer { server, client in
            let target = server.baseURL.absoluteString + "/echo?from=redirect"
            let encodedTarget = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let response = try await client.get("/redirect?to=\(encodedTarget)")

            #expect(response.status == 200)
            #expect(try response.decode(EchoReply.self).query == "from=redirect")
        }
    }

    @Test func unknownRouteIsNotFoundWithAJSONBody() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/no/such/route")

            #expect(response.status == 404)
            #expect(try response.decode(APIError.self).error == "not_found")
        }
    }
}
