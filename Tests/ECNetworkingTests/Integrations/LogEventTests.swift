import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// A network with logging on, handing every entry, as an event, to `events`.
private func makeEventNetwork(
    answering responses: [MockResponse],
    events: Log<NetworkLogEvent>,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> (URLSessionNetwork, MockSession) {
    let session = MockSession()
    session.stub(with: responses)
    let network = makeNetwork(session: session) { configuration in
        configuration.logging = true
        configuration.logSink = .events { events.append($0) }
        configure(&configuration)
    }
    return (network, session)
}

/// The metadata of `event` as a dictionary, for lookups.
private func fields(_ event: NetworkLogEvent) -> [String: String] {
    Dictionary(event.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
}

@Suite("Log events: levels and metadata shared by every sink")
struct LogEventTests {
    private let usersURL = testBaseURL.appendingPathComponent("users")

    @Test("a request is debug and its answer info, both with the send id, attempt 1, method, URL, status and duration")
    func requestAndResponse() async throws {
        let events = Log<NetworkLogEvent>()
        let (network, _) = makeEventNetwork(answering: [MockResponse(statusCode: 200)], events: events)

        _ = try await network.send(NetworkRequest(url: usersURL))

        let all = events.all
        #expect(all.map(\.kind) == [.request, .response])
        #expect(all.map(\.level) == [.debug, .info])
        let request = try #require(all.first)
        let response = try #require(all.last)
        #expect(request.sendID != nil)
        #expect(request.sendID == response.sendID)
        #expect(all.map(\.attempt) == [1, 1])
        #expect(fields(request)["http.request.method"] == "GET")
        #expect(fields(request)["url.full"] == "https://api.example.com/v1/users")
        #expect(fields(request)["send.attempt"] == "1")
        #expect(fields(response)["http.response.status_code"] == "200")
        #expect(fields(response)["duration_ms"] != nil)
        #expect(response.message.hasPrefix("<-- 200 GET https://api.example.com/v1/users ("))
        // The text sinks get exactly what they always got: the message and its detail lines.
        #expect(request.text == ([request.message] + request.details).joined(separator: "\n"))
    }

    @Test("each attempt of a retried send has its own number under one send id; another send has another id")
    func attemptsShareTheSendID() async throws {
        let events = Log<NetworkLogEvent>()
        let (network, _) = makeEventNetwork(
            answering: [MockResponse(statusCode: 503), MockResponse(statusCode: 200), MockResponse(statusCode: 200)],
            events: events
        ) { $0.retryPolicy = RetryPolicy(baseDelay: .zero, jitter: 0) }

        _ = try await network.send(NetworkRequest(url: usersURL))
        _ = try await network.send(NetworkRequest(url: usersURL))

        let requests = events.all.filter { $0.kind == .request }
        #expect(requests.map(\.attempt) == [1, 2, 1])
        #expect(requests[0].sendID == requests[1].sendID)
        #expect(requests[2].sendID != requests[0].sendID)
        let responses = events.all.filter { $0.kind == .response }
        #expect(responses.map(\.level) == [.warning, .info, .info])
        #expect(responses.map(\.statusCode) == [503, 200, 200])
    }

    @Test("a failed send is error, a cancelled one notice, each with its send id and how long it ran")
    func failuresAndCancellation() async throws {
        let events = Log<NetworkLogEvent>()
        let (network, session) = makeEventNetwork(
            answering: [.failure(.notConnectedToInternet), MockResponse(statusCode: 200, delay: longDelay)],
            events: events)

        await #expect(throws: NetworkError.self) { _ = try await network.send(NetworkRequest(url: usersURL)) }
        let cancelled = Task { try await network.send(NetworkRequest(url: usersURL)) }
        try await waitUntil { session.recordedRequests.count == 2 }
        cancelled.cancel()
        await expectCancellation(of: cancelled)

        let failures = events.all.filter { $0.kind == .failure }
        #expect(failures.map(\.level) == [.error, .notice])
        #expect(failures.allSatisfy { $0.sendID != nil && $0.attempt == 1 && $0.duration != nil })
        #expect(failures.first?.message.hasPrefix("<-- failed GET https://api.example.com/v1/users: ") == true)
    }

    @Test("the minimum level leaves out the entries below it")
    func minimumLevel() async throws {
        let events = Log<NetworkLogEvent>()
        let (network, _) = makeEventNetwork(answering: [MockResponse(statusCode: 200)], events: events) {
            $0.loggingOptions.minimumLevel = .info
        }

        _ = try await network.send(NetworkRequest(url: usersURL))

        #expect(events.all.map(\.kind) == [.response])
    }

    @Test("text written straight to an event sink arrives as an info message")
    func writeToEventSink() {
        let events = Log<NetworkLogEvent>()
        LogSink.events { events.append($0) }.write("hello")
        #expect(events.all.map(\.message) == ["hello"])
        #expect(events.all.map(\.level) == [.info])
        #expect(events.all.map(\.kind) == [.message])
    }

    @Test("no planted secret is in any message, detail or metadata value")
    func noSecretInAnyField() async throws {
        let events = Log<NetworkLogEvent>()
        let (network, _) = makeEventNetwork(
            answering: [
                MockResponse(
                    statusCode: 401, data: Data(Planted.responseBody.utf8),
                    headers: ["Content-Type": "application/json", "Set-Cookie": "id=\(Planted.responseCookie)"])
            ],
            events: events
        ) { $0.sensitiveData.headers.insert("X-Tenant-Handle") }

        await #expect(throws: NetworkError.self) { _ = try await network.send(Planted.request) }

        var texts: [String: String] = [:]
        for (index, event) in events.all.enumerated() {
            texts["event \(index) message"] = event.message
            texts["event \(index) details"] = event.details.joined(separator: "\n")
            texts["event \(index) url"] = event.url
            for field in event.metadata { texts["event \(index) \(field.key)"] = field.value }
        }
        #expect(events.all.map(\.kind) == [.request, .response, .failure])
        expectNoSecrets(in: texts, Planted.all)
    }
}
