import DemoServer
import Foundation
import Testing

@Suite("/echo")
struct EchoTests {
    @Test func getReflectsMethodPathQueryAndHeaders() async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(
                "GET",
                "/echo?name=a%20b&page=2",
                headers: ["X-Request-ID": "abc-123", "Accept-Language": "en, fr;q=0.5"]
            )

            #expect(response.status == 200)
            let echo = try response.decode(EchoReply.self)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo")
            #expect(echo.query == "name=a%20b&page=2")
            #expect(echo.headers["x-request-id"] == "abc-123")
            #expect(echo.headers["accept-language"] == "en, fr;q=0.5")
            #expect(echo.body.isEmpty)
        }
    }

    @Test func postReflectsTheBody() async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(
                "POST",
                "/echo",
                headers: ["Content-Type": "text/plain"],
                body: Data("héllo wörld".utf8)
            )

            let echo = try response.decode(EchoReply.self)
            #expect(echo.method == "POST")
            #expect(echo.query == nil)
            #expect(echo.body == "héllo wörld")
            #expect(echo.headers["content-type"] == "text/plain")
            #expect(echo.headers["content-length"] == "\("héllo wörld".utf8.count)")
        }
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE"])
    func otherMethodsAreEchoedToo(method: String) async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(method, "/echo", body: Data("x".utf8))

            #expect(try response.decode(EchoReply.self).method == method)
        }
    }
}
