import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network the scenarios send through: logging into `lines`, metrics into `metrics`, and one
/// header name added to the sensitive names by the user.
private func makeObservedNetwork(
    answering response: MockResponse,
    lines: Log<String>,
    metrics: Log<RequestMetrics>
) -> (URLSessionNetwork, MockSession) {
    makeStubbedNetwork(answering: response) { configuration in
        configuration.logging = true
        configuration.logSink = LogSink { lines.append($0) }
        configuration.metricsHandler = { metrics.append($0) }
        configuration.sensitiveData.headers.insert("X-Tenant-Handle")
    }
}

@Suite("No planted secret leaves through logs, cURL, metrics or error descriptions")
struct SecretLeakTests {
    @Test("a send with secrets in headers, userinfo, query and body, answered 401 with secrets, leaks none")
    func everyOutputOfAFailedSend() async throws {
        let lines = Log<String>()
        let metrics = Log<RequestMetrics>()
        let (network, session) = makeObservedNetwork(
            answering: MockResponse(
                statusCode: 401, data: Data(Planted.responseBody.utf8),
                headers: ["Content-Type": "application/json", "Set-Cookie": "id=\(Planted.responseCookie)"]),
            lines: lines, metrics: metrics)

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(Planted.request)
        }

        let log = lines.all.joined(separator: "\n")
        let reported = try #require(metrics.all.first)
        var texts = ["log": log]
        for (name, text) in renderings(of: error) { texts["error \(name)"] = text }
        for (name, text) in renderings(of: reported) { texts["metrics \(name)"] = text }
        for (name, text) in renderings(of: reported.request) { texts["metrics.request \(name)"] = text }
        texts["metrics.request.url"] = reported.request.url.absoluteString
        texts["metrics.request.headers"] = reported.request.headers.map { "\($0.name): \($0.value)" }
            .joined(separator: "\n")
        expectNoSecrets(in: texts, Planted.all)

        // What is not secret stays visible.
        #expect(log.contains("--> POST https://"))
        #expect(log.contains("@api.example.com/v1/login?"))
        #expect(log.contains("page=2"))
        #expect(log.contains("X-Trace: trace-1"))
        #expect(log.contains(#""name":"ada""#))
        #expect(log.contains(#""model":"phone""#))
        #expect(log.contains("<-- 401 POST https://"))
        #expect(log.contains(#""error":"expired""#))
        let failureLine = try #require(lines.all.last)
        #expect(failureLine.hasPrefix("<-- failed POST https://"))
        #expect(failureLine.contains("401"))
        #expect(failureLine.contains(#""error":"expired""#))
        #expect(String(describing: error).contains("401"))
        #expect(String(describing: reported).contains("POST"))
        #expect(String(describing: reported).contains("/v1/login"))
        #expect(reported.request.url.host == "api.example.com")
        #expect(reported.request.url.path == "/v1/login")

        // The server got everything, untouched.
        let sent = try #require(session.recordedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer \(Planted.authorization)")
        #expect(sent.value(forHTTPHeaderField: "X-Tenant-Handle") == Planted.userAddedHeader)
        #expect(sent.url?.absoluteString.contains(Planted.amazonSignature) == true)
        #expect(String(decoding: sent.httpBody ?? Data(), as: UTF8.self) == Planted.body)
    }

    @Test("a form body's password fields are hidden in the preview and the cURL line")
    func formBody() async throws {
        let lines = Log<String>()
        let metrics = Log<RequestMetrics>()
        let (network, _) = makeObservedNetwork(answering: MockResponse(statusCode: 204), lines: lines, metrics: metrics)
        let fields = [
            "username": "ada", "new_password": "PLANTED-FORM-1", "password_confirmation": "PLANTED-FORM-2",
            "user[password]": "PLANTED-FORM-3",
        ]

        _ = try await network.send(
            NetworkRequest(method: .post, url: testBaseURL.appendingPathComponent("users"), body: .form(fields)))

        let log = lines.all.joined(separator: "\n")
        expectNoSecrets(in: ["log": log], ["PLANTED-FORM-1", "PLANTED-FORM-2", "PLANTED-FORM-3"])
        #expect(log.contains("new_password=<redacted>"))
        #expect(log.contains("username=ada"))
    }

    @Test("an invalid URL carrying a token fails with a reason that names the URL without the token")
    func invalidRequestReason() async throws {
        let lines = Log<String>()
        let metrics = Log<RequestMetrics>()
        let (network, session) = makeObservedNetwork(
            answering: MockResponse(statusCode: 200), lines: lines, metrics: metrics)
        let url = try #require(
            URL(string: "ftp://ada:PLANTED-INVALID-2@files.example.com/a?access_token=PLANTED-INVALID-1"))

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(url: url))
        }

        guard case .invalidRequest(let reason) = error else {
            Issue.record("expected invalidRequest, got \(error)")
            return
        }
        var texts = renderings(of: error)
        texts["reason"] = reason
        texts["log"] = lines.all.joined(separator: "\n")
        expectNoSecrets(in: texts, ["PLANTED-INVALID-1", "PLANTED-INVALID-2"])
        #expect(reason.contains("files.example.com/a?access_token=<redacted>"))
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("the cURL line quotes the method, so a method with shell syntax is inert")
    func curlMethodIsQuoted() async throws {
        let lines = Log<String>()
        let metrics = Log<RequestMetrics>()
        let (network, _) = makeObservedNetwork(answering: MockResponse(statusCode: 200), lines: lines, metrics: metrics)
        // `'`, `|`, `&`, `$` and backquotes are valid in an HTTP method token, and special to a shell.
        let method: HTTPMethod = "X'|echo`whoami`$HOME&"

        _ = try await network.send(NetworkRequest(method: method, url: testBaseURL.appendingPathComponent("users")))

        let entry = try #require(lines.all.first { $0.hasPrefix("-->") })
        let curl = try #require(entry.split(separator: "\n").last.map(String.init))
        // The same quoting as every other argument, which `LoggingTests` runs through a real shell;
        // not spawning one here keeps this test cheap under ThreadSanitizer.
        #expect(curl == #"    curl -X 'X'\''|echo`whoami`$HOME&' 'https://api.example.com/v1/users'"#)
    }

}
