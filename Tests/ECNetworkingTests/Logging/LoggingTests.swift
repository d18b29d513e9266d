import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects what the logging action writes, from any thread.
private typealias LogCollector = Log<String>

extension Log<String> {
    /// Everything written, as one text.
    fileprivate var text: String {
        all.joined(separator: "\n")
    }

    /// The first entry that starts with `prefix`.
    fileprivate func entry(startingWith prefix: String) -> String? {
        all.first { $0.hasPrefix(prefix) }
    }
}

/// A network with logging on, writing to `collector`, over a new mock session.
private func makeLoggingNetwork(
    collector: LogCollector,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> (URLSessionNetwork, MockSession) {
    let session = MockSession()
    var configuration = NetworkConfiguration(baseURL: testBaseURL, logging: true)
    configuration.encoder.outputFormatting = .sortedKeys
    configure(&configuration)
    configuration.logSink = LogSink { entry in collector.append(entry) }
    return (URLSessionNetwork(configuration: configuration, session: session), session)
}

/// Secrets used by the query redaction scenario, which runs in a child process.
private enum QuerySecrets {
    static let accessToken = "SECRET-QUERY-ACCESS-TOKEN"
    static let userNamed = "SECRET-QUERY-USER-NAMED"
    static let encodedName = "SECRET-QUERY-ENCODED-NAME"
    static let failed = "SECRET-QUERY-FAILED-SEND"
    static let all = [accessToken, userNamed, encodedName, failed]
}

/// Sends requests whose query carries secrets (one answered, one failing in the transport) through
/// a logging network; returns what was logged and the URLs the server received.
private func runQueryRedactionScenario() async -> (logs: String, wireURLs: [String]) {
    let collector = LogCollector()
    let (network, session) = makeLoggingNetwork(collector: collector) {
        $0.sensitiveData.queryParameters.insert("session_sig")
    }
    session.stub(.path("/v1/users"), with: MockResponse(statusCode: 200))
    session.stub(.path("/v1/fail"), with: .failure(.notConnectedToInternet))

    let url = URL(string: "https://api.example.com/v1/users?access%5Ftoken=\(QuerySecrets.encodedName)&page=2")!
    let request = NetworkRequest(
        url: url,
        queryItems: [
            URLQueryItem(name: "ACCESS_TOKEN", value: QuerySecrets.accessToken),
            URLQueryItem(name: "Session_Sig", value: QuerySecrets.userNamed),
            URLQueryItem(name: "visible", value: "shown"),
        ])
    _ = try? await network.send(request)
    _ = try? await network.send(
        NetworkRequest(
            url: testBaseURL.appendingPathComponent("fail"),
            queryItems: [URLQueryItem(name: "access_token", value: QuerySecrets.failed)]))
    return (collector.text, session.recordedRequests.map { $0.url?.absoluteString ?? "" })
}

@Suite("Logging")
struct LoggingTests {
    private let user = User(id: 1, name: "Ada")
    private let usersURL = testBaseURL.appendingPathComponent("users")

    // MARK: - Request entry

    @Test("The request entry has the method, URL, headers, body preview and a cURL command, in that order")
    func requestEntry() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 201, json: user))

        _ = try await network.send(
            NetworkRequest(headers: ["X-Trace": "t-1"], method: .post, url: usersURL, body: .json(user)))

        let entry = try #require(collector.entry(startingWith: "-->"))
        let body = #"{"id":1,"name":"Ada"}"#
        #expect(
            entry.split(separator: "\n").map(String.init) == [
                "--> POST https://api.example.com/v1/users",
                "    X-Trace: t-1",
                "    Content-Type: application/json",
                "    body: \(body)",
                "    curl -X 'POST' 'https://api.example.com/v1/users' -H 'X-Trace: t-1' "
                    + "-H 'Content-Type: application/json' --data-binary '\(body)'",
            ])
    }

    @Test("A GET's cURL command has no -X and no body, and shows the full URL with its query")
    func getCURLCommand() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 200))

        _ = try await network.send(
            NetworkRequest(url: usersURL, queryItems: [URLQueryItem(name: "q", value: "a b")]))

        let entry = try #require(collector.entry(startingWith: "-->"))
        let lines = entry.split(separator: "\n").map(String.init)
        #expect(lines.first == "--> GET https://api.example.com/v1/users?q=a%20b")
        #expect(lines.last == "    curl 'https://api.example.com/v1/users?q=a%20b'")
        #expect(!entry.contains("body:"))
    }

    @Test("The cURL command survives a shell: quotes, spaces, $ and backslashes come back unchanged")
    func curlCommandIsShellSafe() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 200))
        let text = #"it's "quoted" $HOME `whoami` \n back\slash"#

        _ = try await network.send(
            NetworkRequest(
                headers: ["X-Note": "O'Brien's $PATH"], method: .put, url: usersURL,
                body: .text(text, contentType: "text/plain")))

        let entry = try #require(collector.entry(startingWith: "-->"))
        let curl = try #require(entry.split(separator: "\n").last.map(String.init))
        let words = try await shellWords(ofCURLCommand: curl)
        #expect(
            words == [
                "-X", "PUT", "https://api.example.com/v1/users", "-H", "X-Note: O'Brien's $PATH",
                "-H", "Content-Type: text/plain", "--data-binary", text,
            ])
    }

    @Test("Headers added by the configuration's defaults appear in the logged request")
    func defaultHeadersAreLogged() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) {
            $0.defaultHeaders = ["Accept": "application/json"]
        }
        session.stub(.any, with: MockResponse(statusCode: 200))

        _ = try await network.send(NetworkRequest(url: usersURL))

        let entry = try #require(collector.entry(startingWith: "-->"))
        #expect(entry.contains("\n    Accept: application/json"))
        #expect(entry.contains("-H 'Accept: application/json'"))
    }

    // MARK: - Response entry

    @Test("The response entry has the status, method, URL, duration in ms, headers and body preview")
    func responseEntry() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(
            .any,
            with: MockResponse(
                statusCode: 201, data: Data(#"{"id":1,"name":"Ada"}"#.utf8),
                headers: ["Content-Type": "application/json", "X-Request-Id": "r-1"], delay: .milliseconds(60)))

        _ = try await network.send(NetworkRequest(method: .post, url: usersURL, body: .json(user)))

        let entry = try #require(collector.entry(startingWith: "<--"))
        let lines = entry.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        let pattern = try Regex(#"^<-- 201 POST https://api\.example\.com/v1/users \((\d+) ms\)$"#)
        let match = try #require(first.wholeMatch(of: pattern), "unexpected response line: \(first)")
        let milliseconds = try #require(match.output[1].substring.flatMap { Int($0) })
        #expect(milliseconds >= 55)
        #expect(milliseconds < 10_000)

        let lowercasedLines = lines.map { $0.lowercased() }
        #expect(lowercasedLines.contains("    x-request-id: r-1"))
        #expect(lowercasedLines.contains("    content-type: application/json"))
        #expect(lines.last == #"    body: {"id":1,"name":"Ada"}"#)
    }

    @Test("An empty response body has no body line")
    func emptyResponseBody() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 204))

        _ = try await network.send(NetworkRequest(method: .delete, url: usersURL))

        let entry = try #require(collector.entry(startingWith: "<--"))
        #expect(entry.hasPrefix("<-- 204 DELETE https://api.example.com/v1/users ("))
        #expect(!entry.contains("body:"))
    }

    // MARK: - Body previews

    @Test("Bodies longer than bodyPreviewLimit are cut with the number of bytes left out")
    func bodyPreviewTruncated() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) { $0.loggingOptions.bodyPreviewLimit = 16 }
        session.stub(.any, with: MockResponse(statusCode: 200, data: Data(String(repeating: "b", count: 100).utf8)))

        _ = try await network.send(
            NetworkRequest(method: .post, url: usersURL, body: .text(String(repeating: "a", count: 40))))

        let request = try #require(collector.entry(startingWith: "-->"))
        let response = try #require(collector.entry(startingWith: "<--"))
        #expect(request.contains("\n    body: \(String(repeating: "a", count: 16))… (24 more bytes)\n"))
        #expect(response.hasSuffix("\n    body: \(String(repeating: "b", count: 16))… (84 more bytes)"))
    }

    @Test("A body exactly at the limit is shown whole, with no \"more bytes\"")
    func bodyPreviewAtLimit() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) { $0.loggingOptions.bodyPreviewLimit = 8 }
        session.stub(.any, with: MockResponse(statusCode: 200, data: Data("12345678".utf8)))

        _ = try await network.send(NetworkRequest(url: usersURL))

        let response = try #require(collector.entry(startingWith: "<--"))
        #expect(response.hasSuffix("\n    body: 12345678"))
        #expect(!collector.text.contains("more bytes"))
    }

    @Test("A cut through a multi-byte character still previews the text before it")
    func bodyPreviewCutInsideCharacter() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) { $0.loggingOptions.bodyPreviewLimit = 5 }
        // 16 bytes of four-byte characters; the limit cuts one byte into the second one.
        session.stub(.any, with: MockResponse(statusCode: 200, data: Data("😀😀😀😀".utf8)))

        _ = try await network.send(NetworkRequest(url: usersURL))

        let response = try #require(collector.entry(startingWith: "<--"))
        let bodyLine = try #require(response.split(separator: "\n").last.map(String.init))
        #expect(bodyLine.hasPrefix("    body: 😀"), "the preview of valid UTF-8 text should be text")
        #expect(bodyLine.contains("more bytes"))
        #expect(!bodyLine.contains("binary data"))
    }

    @Test("A binary body is previewed as a byte count, however short", arguments: [2, 3, 10])
    func binaryBodyPreview(count: Int) async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 200))
        let bytes = Data(repeating: 0xFF, count: count)

        _ = try await network.send(NetworkRequest(method: .post, url: usersURL, body: .data(bytes)))

        let request = try #require(collector.entry(startingWith: "-->"))
        #expect(request.contains("\n    body: <\(count) bytes of binary data>\n"))
        #expect(request.contains("--data-binary '<\(count) bytes of binary data>'"))
    }

    // MARK: - Redaction

    @Test("Secret headers are redacted everywhere, cURL line included, yet sent to the server")
    func headerRedaction() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) {
            $0.sensitiveData.headers.insert("X-Api-Key")
            $0.defaultHeaders = ["Proxy-Authorization": "Basic SECRET-PROXY"]
        }
        network.add(action: AddHeader(name: "Cookie", value: "session=SECRET-COOKIE"))
        session.stub(
            .any,
            with: MockResponse(
                statusCode: 200, data: Data("ok".utf8),
                headers: ["Set-Cookie": "id=SECRET-SET-COOKIE; HttpOnly", "X-Visible": "fine"]))
        let secrets = ["SECRET-AUTH", "SECRET-PROXY", "SECRET-COOKIE", "SECRET-SET-COOKIE", "SECRET-API-KEY"]

        let response = try await network.send(
            NetworkRequest(
                headers: ["authorization": "Bearer SECRET-AUTH", "x-api-key": "SECRET-API-KEY", "X-Plain": "plain"],
                url: usersURL))

        let logs = collector.text
        for secret in secrets {
            #expect(!logs.contains(secret), "\(secret) was logged")
        }
        #expect(logs.contains("    authorization: <redacted>"))
        #expect(logs.contains("-H 'authorization: <redacted>'"))
        #expect(logs.contains("-H 'x-api-key: <redacted>'"))
        #expect(logs.contains("-H 'Proxy-Authorization: <redacted>'"))
        #expect(logs.contains("-H 'Cookie: <redacted>'"))
        #expect(logs.lowercased().contains("    set-cookie: <redacted>"))
        #expect(logs.contains("    X-Plain: plain"))
        #expect(logs.lowercased().contains("    x-visible: fine"))

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.value(forHTTPHeaderField: "Authorization") == "Bearer SECRET-AUTH")
        #expect(recorded.value(forHTTPHeaderField: "Proxy-Authorization") == "Basic SECRET-PROXY")
        #expect(recorded.value(forHTTPHeaderField: "Cookie") == "session=SECRET-COOKIE")
        #expect(recorded.value(forHTTPHeaderField: "X-Api-Key") == "SECRET-API-KEY")
        #expect(response.headers["set-cookie"] == "id=SECRET-SET-COOKIE; HttpOnly")
    }

    @Test("Secret query parameters are redacted in every line, yet sent to the server")
    func queryRedaction() async {
        let outcome = await runQueryRedactionScenario()
        let logs = outcome.logs
        let wire = outcome.wireURLs.joined(separator: "\n")

        for secret in QuerySecrets.all {
            #expect(!logs.contains(secret), "\(secret) was logged")
            #expect(wire.contains(secret), "\(secret) did not reach the server")
        }
        #expect(logs.contains("--> GET https://api.example.com/v1/users?"))
        #expect(logs.contains("ACCESS_TOKEN=<redacted>") || logs.contains("ACCESS_TOKEN=%3Credacted%3E"))
        #expect(logs.contains("visible=shown"))
        #expect(logs.contains("page=2"))
        #expect(logs.contains("curl 'https://api.example.com/v1/users?"))
        #expect(logs.contains("<-- 200 GET https://api.example.com/v1/users?"))
        #expect(logs.contains("<-- failed GET https://api.example.com/v1/fail?access_token="))
    }

    // MARK: - Order and failures

    @Test("The logging action runs last: a header added by an action added later is logged")
    func loggingRunsLast() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 200))
        network.add(action: AddHeader(name: "X-Added-Later", value: "yes"))

        _ = try await network.send(NetworkRequest(url: usersURL))

        let entry = try #require(collector.entry(startingWith: "-->"))
        #expect(entry.contains("\n    X-Added-Later: yes"))
        #expect(entry.contains("-H 'X-Added-Later: yes'"))
        #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "X-Added-Later") == "yes")
    }

    @Test("A transport failure logs a failed line after the request entry, and no response entry")
    func failedSendIsLogged() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: .failure(.notConnectedToInternet))

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(url: usersURL))
        }
        guard case .transport = error else {
            Issue.record("Expected transport, got \(error)")
            return
        }

        let entries = collector.all
        #expect(entries.count == 2)
        #expect(entries.first?.hasPrefix("--> GET https://api.example.com/v1/users") == true)
        let failed = try #require(entries.last)
        #expect(failed.hasPrefix("<-- failed GET https://api.example.com/v1/users: "))
        #expect(failed.contains("could not be reached"))
        #expect(!entries.contains { $0.hasPrefix("<-- 2") })
    }

    @Test("An unacceptable status logs the response and then the failure")
    func unacceptableStatusIsLogged() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector)
        session.stub(.any, with: MockResponse(statusCode: 503, data: Data("down".utf8)))

        await #expect(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(url: usersURL))
        }

        let entries = collector.all
        #expect(entries.count == 3)
        #expect(entries.dropFirst().first?.hasPrefix("<-- 503 GET https://api.example.com/v1/users (") == true)
        #expect(entries.last?.hasPrefix("<-- failed GET https://api.example.com/v1/users: ") == true)
        #expect(entries.last?.contains("503") == true)
    }

    // MARK: - Switches

    @Test("Nothing is logged when logging is off")
    func loggingOff() async throws {
        let collector = LogCollector()
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.logSink = LogSink { collector.append($0) }
        let network = URLSessionNetwork(configuration: configuration, session: session)

        _ = try await network.send(NetworkRequest(url: usersURL))

        #expect(collector.all.isEmpty)
        #expect(session.recordedRequests.count == 1)
    }

    @Test("includesCURLCommand = false leaves the cURL command out")
    func curlCommandOff() async throws {
        let collector = LogCollector()
        let (network, session) = makeLoggingNetwork(collector: collector) {
            $0.loggingOptions.includesCURLCommand = false
        }
        session.stub(.any, with: MockResponse(statusCode: 200))

        _ = try await network.send(NetworkRequest(method: .post, url: usersURL, body: .json(user)))

        let entry = try #require(collector.entry(startingWith: "-->"))
        #expect(!entry.contains("curl"))
        #expect(entry.contains("    body: "))
    }
}
