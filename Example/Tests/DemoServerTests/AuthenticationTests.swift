import DemoServer
import Foundation
import Testing

@Suite("POST /login and bearer tokens")
struct AuthenticationTests {
    @Test func validCredentialsReturnAToken() async throws {
        try await withDemoServer(DemoServerConfiguration(tokenLifetime: .seconds(60))) { server, client in
            let response = try await client.sendJSON(
                "POST", "/login", Credentials(username: "demo", password: "secret"))

            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let token = try response.decode(Token.self)
            #expect(!token.token.isEmpty)
            #expect(token.expiresIn == 60)
            #expect(await server.recorder.loginCount == 1)
        }
    }

    @Test func wrongPasswordIsRejectedWithAJSONError() async throws {
        try await withDemoServer { server, client in
            let response = try await client.sendJSON("POST", "/login", Credentials(username: "demo", password: "wrong"))

            #expect(response.status == 401)
            #expect(try response.decode(APIError.self).error == "invalid_credentials")
            #expect(await server.recorder.loginCount == 1)
        }
    }

    @Test func configuredCredentialsReplaceTheDefaults() async throws {
        let configuration = DemoServerConfiguration(username: "alice", password: "wonderland")
        try await withDemoServer(configuration) { _, client in
            let rejected = try await client.sendJSON(
                "POST", "/login", Credentials(username: "demo", password: "secret"))
            let accepted = try await client.sendJSON(
                "POST",
                "/login",
                Credentials(username: "alice", password: "wonderland")
            )

            #expect(rejected.status == 401)
            #expect(accepted.status == 200)
        }
    }

    @Test func malformedBodyIsABadRequest() async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(
                "POST",
                "/login",
                headers: ["Content-Type": "application/json"],
                body: Data("{\"username\": \"demo\"}".utf8)
            )

            #expect(response.status == 400)
            #expect(try response.decode(APIError.self).error == "bad_request")
        }
    }

    @Test func usersRequireABearerToken() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/users")

            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") == "Bearer")
            #expect(try response.decode(APIError.self).error == "missing_token")
        }
    }

    @Test func unknownTokenIsRejected() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/users", token: "made-up")

            #expect(response.status == 401)
            #expect(try response.decode(APIError.self).error == "invalid_token")
        }
    }

    @Test func expiredTokenIsRejected() async throws {
        try await withDemoServer(DemoServerConfiguration(tokenLifetime: .milliseconds(300))) { _, client in
            let token = try await client.logIn()
            // No request with the fresh token first: under load it could already be 300 ms old when it arrives.
            try await Task.sleep(for: .milliseconds(500))
            let afterExpiry = try await client.get("/users", token: token)

            #expect(afterExpiry.status == 401)
            // Distinguishes expiry from a token the server never issued.
            #expect(try afterExpiry.decode(APIError.self).error == "token_expired")
        }
    }

    @Test func subSecondLifetimeReportsZeroSeconds() async throws {
        try await withDemoServer(DemoServerConfiguration(tokenLifetime: .milliseconds(300))) { _, client in
            let response = try await client.sendJSON(
                "POST", "/login", Credentials(username: "demo", password: "secret"))

            #expect(try response.decode(Token.self).expiresIn == 0)
        }
    }
}
