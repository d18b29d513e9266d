import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Timeouts, timings and the metrics hook")
struct TimeoutAndTimingTests {
    @Test("a 300 ms timeout means 300 ms, not a whole second")
    func subSecondTimeout() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: longDelay))
        let network = makeNetwork(session: session) { $0.timeout = .milliseconds(300) }
        let clock = ContinuousClock()
        let start = clock.now

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a timeout")
        } catch NetworkError.timedOut(let after) {
            #expect(after == .milliseconds(300))
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(290))
        #expect(elapsed < promptBound, "the long stub must not be waited out")
        try await waitUntil { session.cancelledRequestCount == 1 }
    }

    @Test("a request's own timeout wins over the configuration's")
    func perRequestTimeout() async throws {
        struct Quick: Request {
            typealias Response = Void
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL, timeout: .milliseconds(50))
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .seconds(10)))
        let network = makeNetwork(session: session)
        await #expect(throws: NetworkError.self) { try await network.send(Quick()) }
    }

    @Test("timings and metrics are measured for every send, decoding included")
    func metrics() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")], delay: .milliseconds(30)))
        let collected = Log<RequestMetrics>()
        let network = makeNetwork(session: session) { configuration in
            configuration.metricsHandler = { collected.append($0) }
        }
        network.add(
            action: WillBegin { request in
                try await Task.sleep(for: .milliseconds(20))
                return request
            })

        _ = try await network.send(ListUsers())
        let response = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("users")))

        let metrics = collected.all
        #expect(metrics.count == 2)
        let first = try #require(metrics.first)
        #expect(first.statusCode == 200)
        #expect(first.attempts == 1)
        #expect(first.error == nil)
        #expect(first.timings.willBegin >= .milliseconds(20))
        #expect(first.timings.transport >= .milliseconds(30))
        #expect(first.timings.decoding > .zero)
        #expect(first.timings.total >= first.timings.willBegin + first.timings.transport)
        #expect(response.timings.transport >= .milliseconds(30))
    }

    /// Without actions, decoding is timed from the transport's last reading, so it includes the
    /// wait for the send's task to run again, which two busy cores can stretch to hundreds of
    /// milliseconds; the action takes seconds, so that only its time, never that wait, can take
    /// the decoding's duration past it.
    @Test("decoding is timed without the completed actions' time, and from the transport's end without them")
    func decodingExcludesCompletedActions() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")]))
        let collected = Log<RequestMetrics>()
        let network = makeNetwork(session: session) { configuration in
            configuration.metricsHandler = { collected.append($0) }
        }
        let actionTime: Duration = .seconds(3)
        _ = try await network.send(ListUsers())
        network.add(
            action: Completed { _, response in
                try await Task.sleep(for: actionTime)
                return .proceed(response)
            })
        _ = try await network.send(ListUsers())

        let metrics = collected.all
        #expect(metrics.count == 2)
        for sent in metrics {
            #expect(sent.timings.decoding > .zero)
            #expect(sent.timings.decoding < actionTime)
            #expect(sent.timings.total >= sent.timings.transport + sent.timings.decoding)
        }
        #expect(metrics[1].timings.total >= actionTime)
    }

    @Test("a failed send reports its error to the metrics hook")
    func metricsOnFailure() async throws {
        let session = MockSession()
        session.stub(with: MockResponse.failure(.cannotConnectToHost))
        let collected = Log<RequestMetrics>()
        let network = makeNetwork(session: session) { configuration in
            configuration.metricsHandler = { collected.append($0) }
        }

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a transport error")
        } catch NetworkError.transport(let error) {
            #expect(error.code == .cannotConnectToHost)
        }
        #expect(collected.all.count == 1)
        #expect(collected.all.first?.error != nil)
        #expect(collected.all.first?.statusCode == nil)
    }
}
