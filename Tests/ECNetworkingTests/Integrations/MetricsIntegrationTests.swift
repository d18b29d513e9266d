#if Metrics
    import ECNetworkingTesting
    import Foundation
    import Metrics
    import MetricsTestKit
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// A network over `session` whose metrics go to `metrics`.
    func makeMeasuredNetwork(
        session: MockSession,
        metrics: TestMetrics,
        configure: (inout NetworkConfiguration) -> Void = { _ in }
    ) -> URLSessionNetwork {
        makeNetwork(session: session) { configuration in
            configuration.metricsFactory = metrics
            configure(&configuration)
        }
    }

    /// The sum of every counter labelled `label`, whatever its dimensions.
    private func total(_ metrics: TestMetrics, _ label: String) -> Int64 {
        metrics.counters(label: label).reduce(0) { $0 + $1.totalValue }
    }

    @Suite("Metrics trait: duration, counters and the active requests meter")
    struct MetricsIntegrationTests {
        private let profileURL = testBaseURL.appendingPathComponent("profiles/4711")

        @Test("each send records its whole duration once, by method, status class and outcome; never by path")
        func durationDimensions() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(
                with: [MockResponse(statusCode: 200), MockResponse(statusCode: 404), MockResponse(statusCode: 200)])
            let network = makeMeasuredNetwork(session: session, metrics: metrics)

            _ = try await network.send(NetworkRequest(url: profileURL))
            await #expect(throws: NetworkError.self) { _ = try await network.send(NetworkRequest(url: profileURL)) }
            _ = try await network.send(NetworkRequest(method: "PROPFIND", url: profileURL))

            let success = try metrics.expectTimer(
                "ecnetworking.client.send.duration",
                [("http.request.method", "GET"), ("http.response.status_class", "2xx"), ("outcome", "success")])
            #expect(success.values.count == 1)
            #expect(success.values.allSatisfy { $0 >= 0 })
            let failure = try metrics.expectTimer(
                "ecnetworking.client.send.duration",
                [("http.request.method", "GET"), ("http.response.status_class", "4xx"), ("outcome", "failure")])
            #expect(failure.values.count == 1)
            let other = try metrics.expectTimer(
                "ecnetworking.client.send.duration",
                [("http.request.method", "_OTHER"), ("http.response.status_class", "2xx"), ("outcome", "success")])
            #expect(other.values.count == 1)
            let dimensionValues = (metrics.timers.flatMap(\.dimensions) + metrics.meters.flatMap(\.dimensions))
                .map(\.1)
            #expect(!dimensionValues.isEmpty)
            #expect(!dimensionValues.contains { $0.contains("4711") || $0.contains("/") })
        }

        @Test("every physical request records http.client.request.duration with OpenTelemetry's attributes")
        func requestDurationConventions() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: [MockResponse(statusCode: 503), MockResponse(statusCode: 200)])
            let network = makeMeasuredNetwork(session: session, metrics: metrics) {
                $0.retryPolicy = RetryPolicy(baseDelay: .zero, jitter: 0)
            }

            _ = try await network.send(NetworkRequest(url: profileURL))

            let server = [("server.address", "api.example.com"), ("server.port", "443"), ("url.scheme", "https")]
            let failed = try metrics.expectTimer(
                "http.client.request.duration",
                [("http.request.method", "GET")] + server + [
                    ("http.response.status_code", "503"), ("error.type", "503"),
                ])
            let succeeded = try metrics.expectTimer(
                "http.client.request.duration",
                [("http.request.method", "GET")] + server + [("http.response.status_code", "200")])
            #expect(failed.values.count == 1)
            #expect(succeeded.values.count == 1)
            #expect(metrics.timers(label: "http.client.request.duration").count == 2)
            // The send as a whole is one value of the library's own metric.
            #expect(metrics.timers(label: "ecnetworking.client.send.duration").flatMap(\.values).count == 1)
        }

        @Test("retries are counted by who asked for them")
        func retries() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: [
                MockResponse(statusCode: 503), MockResponse(statusCode: 503), MockResponse(statusCode: 200),
            ])
            let network = makeMeasuredNetwork(session: session, metrics: metrics) {
                $0.retryPolicy = RetryPolicy(baseDelay: .zero, jitter: 0)
            }

            _ = try await network.send(NetworkRequest(url: profileURL))

            let counter = try metrics.expectCounter(
                "ecnetworking.client.retries", [("http.request.method", "GET"), ("retry.requester", "retry_policy")])
            #expect(counter.totalValue == 2)
        }

        /// The call stays on the wire until all five sends are in it, so four join it however slowly
        /// their tasks start: with an answer due after a delay, on two busy cores a send could start
        /// after the call had ended, and make a call of its own.
        @Test("a send that joins an identical one on the wire counts as coalesced", .timeLimit(.minutes(1)))
        func coalescedSends() async throws {
            let metrics = TestMetrics()
            let session = HeldSession()
            let network = makeCoalescingNetwork(session: session) { $0.metricsFactory = metrics }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 { group.addTask { _ = try await network.send(NetworkRequest(url: profileURL)) } }
                try await waitUntil { network.coalescing.waiterCount == 5 && session.heldCount == 1 }
                session.answer()
                try await group.waitForAll()
            }

            try #require(session.startedPaths.count == 1)
            #expect(total(metrics, "ecnetworking.client.coalesced_sends") == 4)
            // One request went on the wire, so one is timed; the joiners sent none of their own.
            #expect(metrics.timers(label: "http.client.request.duration").flatMap(\.values).count == 1)
        }

        @Test("an answer from a response store is counted, and makes no send")
        func storedAnswers() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let store = InMemoryResponseStore()
            await store.store(StorageFixtures.stored(StorageFixtures.ada), for: StorageFixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result.source == .store)
            #expect(total(metrics, "ecnetworking.client.stored_answers") == 1)
            #expect(metrics.timers(label: "ecnetworking.client.send.duration").isEmpty)
            #expect(metrics.timers(label: "http.client.request.duration").isEmpty)
        }

        @Test("a FakeNetwork's stored answers are counted as the real network's are")
        func fakeNetworkStoredAnswers() async throws {
            let metrics = TestMetrics()
            var configuration = NetworkConfiguration(baseURL: testBaseURL)
            configuration.metricsFactory = metrics
            let network = FakeNetwork(configuration: configuration)
            let store = InMemoryResponseStore()
            await store.store(StorageFixtures.stored(StorageFixtures.ada), for: StorageFixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result.source == .store)
            #expect(total(metrics, "ecnetworking.client.stored_answers") == 1)
        }

        @Test("an attempt sent again with a refreshed credential counts as a refresh")
        func refreshes() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 401))
            session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator()
            network.add(
                action: AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old")))

            try await network.send(FetchProfile(id: 1))
            try await network.send(FetchProfile(id: 2))

            #expect(authenticator.refreshes.count == 1)
            #expect(session.authorizations == ["Bearer old", "Bearer new", "Bearer new"])
            #expect(total(metrics, "ecnetworking.client.refreshes") == 1)
        }

        @Test("sends that share one refresh count it once: refreshes, not the sends that carried their credential")
        func sharedRefreshCountsOnce() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 401))
            session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator()
            network.add(
                action: AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old")))
            // All three go out with the old credential before any is rejected: each old-credential
            // attempt waits until all three have one. (A delayed 401 did this only while the three
            // sends' tasks started within the delay, which two busy cores need not do.)
            let oldCredentialAttempts = TestSupport.Counter()
            network.add(
                action: WillBegin { request in
                    if request.headers["Authorization"] == "Bearer old" {
                        oldCredentialAttempts.increment()
                        try await waitUntil { oldCredentialAttempts.count >= 3 }
                    }
                    return request
                })

            async let first: Void = network.send(FetchProfile(id: 1))
            async let second: Void = network.send(FetchProfile(id: 2))
            async let third: Void = network.send(FetchProfile(id: 3))
            _ = try await (first, second, third)

            #expect(authenticator.refreshes.count == 1)
            #expect(session.authorizations.filter { $0 == "Bearer old" }.count == 3)
            #expect(session.authorizations.filter { $0 == "Bearer new" }.count == 3)
            #expect(total(metrics, "ecnetworking.client.refreshes") == 1)
        }

        @Test("the active sends meter counts a send while it runs and drops it when it is cancelled")
        func activeRequests() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200, delay: longDelay))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)

            let task = Task { try await network.send(NetworkRequest(url: profileURL)) }
            try await waitUntil { session.recordedRequests.count == 1 }
            let meter = try metrics.expectMeter("ecnetworking.client.active_sends", [("http.request.method", "GET")])
            #expect(meter.lastValue == 1)
            task.cancel()
            await expectCancellation(of: task)

            #expect(meter.lastValue == 0)
            let cancelled = try metrics.expectTimer(
                "ecnetworking.client.send.duration",
                [("http.request.method", "GET"), ("http.response.status_class", "none"), ("outcome", "cancelled")])
            #expect(cancelled.values.count == 1)
        }
    }
#endif
