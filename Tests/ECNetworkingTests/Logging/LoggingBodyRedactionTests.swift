import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Logging redacts secrets in bodies")
struct LoggingBodyRedactionTests {
    private struct Login: Request {
        typealias Response = Data
        let body: RequestBody
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(method: .post, url: baseURL.appendingPathComponent("login"), body: body)
        }
    }

    @Test("JSON fields and form fields named as secrets are hidden in body previews and the cURL line")
    func bodies() async throws {
        let lines = Log<String>()
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: ["access_token": "RESPONSE-SECRET", "user": ["name": "ada"]]))
        let network = makeNetwork(session: session) { configuration in
            configuration.logging = true
            configuration.logSink = LogSink { lines.append($0) }
            configuration.sensitiveData.bodyFields.insert("pin")
        }

        _ = try await network.send(Login(body: .json(["username": "ada", "password": "JSON-SECRET", "pin": "1234"])))
        _ = try await network.send(Login(body: .form(["username": "ada", "password": "FORM-SECRET"])))

        let log = lines.all.joined(separator: "\n")
        for secret in ["JSON-SECRET", "1234", "FORM-SECRET", "RESPONSE-SECRET"] {
            #expect(!log.contains(secret), "\(secret) was logged")
        }
        #expect(log.contains(#""password":"<redacted>""#))
        #expect(log.contains("password=<redacted>"))
        #expect(log.contains(#""name":"ada""#))
        #expect(log.contains("username=ada"))
        // What was sent is untouched.
        let sent = session.recordedRequests.map { String(decoding: $0.httpBody ?? Data(), as: UTF8.self) }
        #expect(sent[0].contains("JSON-SECRET"))
        #expect(sent[1].contains("FORM-SECRET"))
    }
}
