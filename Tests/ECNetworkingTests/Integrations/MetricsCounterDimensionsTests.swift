#if Metrics
    import ECNetworking
    import ECNetworkingTesting
    import Foundation
    import MetricsTestKit
    import TestSupport
    import Testing

    /// The counters these tests are about; see the table in the Integrations article.
    private enum CounterLabel {
        static let storedAnswers = "ecnetworking.client.stored_answers"
        static let refreshes = "ecnetworking.client.refreshes"
    }

    /// A path segment and a query value that no metric may carry.
    private enum PlantedInURL {
        static let pathSegment = "secret-path-7731"
        static let queryValue = "planted-4242"
    }

    /// `GET /secret-path-7731?ref=planted-4242`, storable, and needing no credential, so that it
    /// is stored without a partition on a network that authenticates its other requests. (The
    /// query's name is not a credential's, as `token` would be, for the same reason.)
    private struct PlantedStorableRequest: StorableRequest {
        typealias Response = [User]

        var customProperties: CustomProperties {
            var properties = CustomProperties()
            properties[RequiresAuthentication.self] = false
            return properties
        }

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(
                method: .get, url: baseURL.appendingPathComponent(PlantedInURL.pathSegment),
                queryItems: [URLQueryItem(name: "ref", value: PlantedInURL.queryValue)])
        }
    }

    /// The dimensions of each counter labelled `label`, as `name=value`.
    private func dimensions(of metrics: TestMetrics, _ label: String) -> [[String]] {
        metrics.counters(label: label).map { $0.dimensions.map { "\($0.0)=\($0.1)" } }
    }

    @Suite("Metrics trait: the stored_answers and refreshes counters, their dimensions and what they count")
    struct MetricsCounterDimensionsTests {
        typealias Fixtures = StorageFixtures

        // MARK: Dimensions

        @Test("stored_answers and refreshes carry exactly the request's method, and no counter the URL's path or query")
        func dimensionsAreTheMethodOnly() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.method(.get), with: MockResponse(json: Fixtures.ada))
            session.stub(.method(.post), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator()
            network.add(action: AuthenticatingAction(authenticator: authenticator))
            let store = InMemoryResponseStore()

            // Fetched and stored, then answered from the store: one stored answer, to a GET.
            let fetched = try await network.send(PlantedStorableRequest(), storage: store, policy: .networkOnly)
            let stored = try await network.send(PlantedStorableRequest(), storage: store, policy: .storedIfFresh)
            // No credential yet: this POST starts the first login, one refresh, by a POST.
            let post = NetworkRequest(
                method: .post, url: testBaseURL.appendingPathComponent(PlantedInURL.pathSegment),
                queryItems: [URLQueryItem(name: "token", value: PlantedInURL.queryValue)])
            _ = try await network.send(post)

            try #require(fetched.source == .network)
            try #require(stored.source == .store)
            try #require(authenticator.refreshes.count == 1)
            // The planted path and query did reach the sends: what is searched for below was there to leak.
            let sent = session.recordedRequests.compactMap { $0.url?.absoluteString }
            #expect(sent.count == 2)
            #expect(
                sent.allSatisfy { $0.contains("/\(PlantedInURL.pathSegment)?") && $0.contains(PlantedInURL.queryValue) }
            )
            #expect(session.authorizations == [nil, "Bearer new"])

            #expect(dimensions(of: metrics, CounterLabel.storedAnswers) == [["http.request.method=GET"]])
            #expect(dimensions(of: metrics, CounterLabel.refreshes) == [["http.request.method=POST"]])
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 1)
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 1)

            // Every counter's label and dimensions, names and values alike.
            let counterTexts = metrics.counters.flatMap { counter in
                [counter.label] + counter.dimensions.flatMap { [$0.0, $0.1] }
            }
            #expect(counterTexts.contains(CounterLabel.storedAnswers))
            #expect(counterTexts.contains(CounterLabel.refreshes))
            for fragment in [PlantedInURL.pathSegment, "7731", PlantedInURL.queryValue, "4242", "/", "?"] {
                #expect(!counterTexts.contains { $0.contains(fragment) }, "a counter carries \(fragment)")
            }
        }

        // MARK: What stored_answers counts

        @Test("storedThenFresh's stored first value counts as a stored answer; the network's value after it does not")
        func storedThenFreshCountsItsStoredValue() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 3600), for: Fixtures.usersKey)

            var received: [StoredValue<[User]>] = []
            for try await value in network.storedThenFresh(StorableUsersRequest(), storage: store) {
                received.append(value)
            }

            try #require(received.map(\.source) == [.store, .network])
            #expect(session.recordedRequests.count == 1)
            let counter = try metrics.expectCounter(CounterLabel.storedAnswers, [("http.request.method", "GET")])
            #expect(counter.totalValue == 1)
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 1)
        }

        @Test("networkFallingBackToStored's fallback, when the network fails, counts as a stored answer")
        func fallbackCountsAsStoredAnswer() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: .failure(.notConnectedToInternet))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 86_400), for: Fixtures.usersKey)

            let result = try await network.send(
                StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)

            try #require(result.source == .store)
            #expect(result.value == Fixtures.ada)
            // The network was asked first, and failed.
            #expect(session.recordedRequests.count == 1)
            let counter = try metrics.expectCounter(CounterLabel.storedAnswers, [("http.request.method", "GET")])
            #expect(counter.totalValue == 1)
        }

        @Test("an answer revalidated with a 304 is the network's, not a stored answer")
        func revalidatedAnswerIsNotCounted() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            // One answer only: the second send below must not reach the network.
            session.stub(with: [MockResponse(statusCode: 304, headers: ["ETag": "\"v1\""])])
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let store = InMemoryResponseStore()
            // Older than the request's maximum age (five minutes), with a validator: revalidated.
            await store.store(
                Fixtures.stored(Fixtures.ada, age: 3600, headers: ["ETag": "\"v1\""]), for: Fixtures.usersKey)

            let revalidated = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            try #require(revalidated == StoredValue(value: Fixtures.ada, source: .network))
            let conditional = try #require(session.recordedRequests.first)
            #expect(conditional.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 0)
            #expect(metrics.counters(label: CounterLabel.storedAnswers).isEmpty)

            // The 304 renewed the entry, so the same send now is a stored answer, and is counted:
            // the counter above had every chance to move.
            let fromStore = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            try #require(fromStore.source == .store)
            #expect(session.recordedRequests.count == 1)
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 1)
        }

        @Test("storedValue(for:in:) reads the store without counting a stored answer")
        func storedValueReadIsNotCounted() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            let read = try await network.storedValue(for: StorableUsersRequest(), in: store)

            try #require(read?.value == Fixtures.ada)
            #expect(read?.source == .store)
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 0)
            #expect(metrics.counters(label: CounterLabel.storedAnswers).isEmpty)

            // The same entry answering a send is counted: the read above was not, by itself.
            let sent = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            try #require(sent.source == .store)
            #expect(session.recordedRequests.isEmpty)
            #expect(metrics.counterTotal(label: CounterLabel.storedAnswers) == 1)
        }

        // MARK: What refreshes counts

        @Test("the first send without a credential starts a refresh (the login), counted once, by its method")
        func loginOnFirstSendCounts() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator()
            network.add(action: AuthenticatingAction(authenticator: authenticator))

            _ = try await network.send(
                NetworkRequest(method: .delete, url: testBaseURL.appendingPathComponent("items")))
            try await network.send(FetchProfile(id: 1))

            try #require(authenticator.refreshes.count == 1)
            #expect(session.authorizations == ["Bearer new", "Bearer new"])
            // Counted by the send that started it, a DELETE; the GET after it used its credential.
            #expect(dimensions(of: metrics, CounterLabel.refreshes) == [["http.request.method=DELETE"]])
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 1)
        }

        @Test("a credential that needsRefresh says is due is refreshed on the first send, and that refresh counts")
        func dueCredentialOnFirstSendCounts() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator { _, stale in
                #expect(stale == TestCredential(token: "old", isExpired: true))
                return TestCredential(token: "new")
            }
            network.add(
                action: AuthenticatingAction(
                    authenticator: authenticator, credential: TestCredential(token: "old", isExpired: true)))

            try await network.send(FetchProfile(id: 1))
            try await network.send(FetchProfile(id: 2))

            try #require(authenticator.refreshes.count == 1)
            // The due credential never went out: the refresh came before the first send's request.
            #expect(session.authorizations == ["Bearer new", "Bearer new"])
            let counter = try metrics.expectCounter(CounterLabel.refreshes, [("http.request.method", "GET")])
            #expect(counter.totalValue == 1)
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 1)
        }

        @Test("a refresh that fails counts as a refresh; the next send's new one counts again")
        func failedRefreshCounts() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            let authenticator = CountingAuthenticator { call, _ in
                if call == 1 { throw RefreshFailure() }
                return TestCredential(token: "new")
            }
            network.add(action: AuthenticatingAction(authenticator: authenticator))

            await #expect(throws: RefreshFailure.self) { try await network.send(FetchProfile(id: 1)) }

            try #require(authenticator.refreshes.count == 1)
            #expect(session.recordedRequests.isEmpty)
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 1)

            try await network.send(FetchProfile(id: 2))

            try #require(authenticator.refreshes.count == 2)
            #expect(session.authorizations == ["Bearer new"])
            let counter = try metrics.expectCounter(CounterLabel.refreshes, [("http.request.method", "GET")])
            #expect(counter.totalValue == 2)
        }

        @Test("a refresh refused for excessiveRefresh is not counted: the authenticator is not asked")
        func excessiveRefreshIsNotCounted() async throws {
            let metrics = TestMetrics()
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 204))
            let network = makeMeasuredNetwork(session: session, metrics: metrics)
            // Every credential is due at once, so every send needs a refresh; the second refreshed
            // one found due reaches the limit of two.
            let authenticator = CountingAuthenticator { call, _ in TestCredential(token: "t\(call)", isExpired: true) }
            network.add(
                action: AuthenticatingAction(
                    authenticator: authenticator, credential: TestCredential(token: "t0", isExpired: true),
                    maximumRefreshes: 2, within: .seconds(30)))

            try await network.send(FetchProfile(id: 1))
            try await network.send(FetchProfile(id: 2))

            try #require(authenticator.refreshes.count == 2)
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 2)

            await #expect(throws: AuthenticationError.excessiveRefresh(count: 2, window: .seconds(30))) {
                try await network.send(FetchProfile(id: 3))
            }

            #expect(authenticator.refreshes.count == 2)
            #expect(session.authorizations == ["Bearer t1", "Bearer t2"])
            #expect(metrics.counterTotal(label: CounterLabel.refreshes) == 2)
            #expect(dimensions(of: metrics, CounterLabel.refreshes) == [["http.request.method=GET"]])
        }
    }
#endif
