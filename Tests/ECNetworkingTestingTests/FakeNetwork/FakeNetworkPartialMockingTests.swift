import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("FakeNetwork passes unstubbed or routed requests to another network")
struct FakeNetworkPartialMockingTests {
    private let clock = ContinuousClock()
    static let dune = Book(id: 1, title: "Dune")
    static let emma = Book(id: 2, title: "Emma")

    /// A real network over a MockSession that answers every request with `response`, with an
    /// action that marks what went through its pipeline.
    static func realNetwork(answering response: MockResponse) -> (URLSessionNetwork, MockSession) {
        let session = MockSession()
        session.stub(with: response)
        let network = makeNetwork(session: session)
        network.add(action: AddHeader(name: "X-Real-Pipeline", value: "yes"))
        return (network, session)
    }

    @Test("stubbed requests are answered by the fake, the others by the real network's pipeline")
    func passesUnstubbedRequests() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)
        fake.stub(ListBooksRequest.self, with: [Self.emma])

        #expect(try await fake.send(ListBooksRequest()) == [Self.emma])
        #expect(try await fake.send(GetBookRequest(id: 1)) == Self.dune)

        #expect(session.recordedRequests.count == 1)
        #expect(session.recordedRequests.first?.url?.path == "/v1/books/1")
        #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "X-Real-Pipeline") == "yes")
        #expect(fake.sentRequests(of: GetBookRequest.self).map(\.id) == [1])
        #expect(fake.sendCount(of: ListBooksRequest.self) == 1)
    }

    @Test("a passed-on request fails as the real network fails it")
    func realFailuresPassThrough() async throws {
        let (real, _) = Self.realNetwork(answering: MockResponse(statusCode: 404))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)

        await #expect {
            _ = try await fake.send(GetBookRequest(id: 1))
        } throws: { error in
            guard case .unacceptableStatusCode(let response)? = error as? NetworkError else { return false }
            return response.statusCode == 404
        }
    }

    @Test("a passed-on send reaches the real network once and calls its completion handler once")
    func exactlyOnce() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)
        let calls = Counter()
        let values = Log<Book>()

        fake.send(GetBookRequest(id: 1)) { result in
            _ = calls.increment()
            if case .success(let book) = result { values.append(book) }
        }
        try await waitUntil { calls.count == 1 }
        // A late second call or a second transport call would show up here.
        try await Task.sleep(for: .milliseconds(100))

        #expect(calls.count == 1)
        #expect(values.all == [Self.dune])
        #expect(session.recordedRequests.count == 1)
        #expect(fake.activeRequestCount == 0)
    }

    @Test("cancelling the caller's task cancels the passed-on send at once")
    func callerCancellation() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune, delay: .seconds(30)))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)
        let start = clock.now
        let send = Task { try await fake.send(GetBookRequest(id: 1)) }
        try await waitUntil { session.recordedRequests.count == 1 }

        send.cancel()

        let error = await #expect(throws: NetworkError.self) { try await send.value }
        #expect(error?.isCancellation == true)
        #expect(clock.now - start < .seconds(20))
        try await waitUntil { real.activeRequestCount == 0 }
    }

    @Test("the fake's cancelAll cancels passed-on sends too, and not their callers")
    func bulkCancellation() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune, delay: .seconds(30)))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)
        let send = Task { () -> (cancelled: Bool, callerCancelled: Bool) in
            do {
                _ = try await fake.send(GetBookRequest(id: 1))
                return (false, Task.isCancelled)
            } catch {
                return ((error as? NetworkError)?.isCancellation == true, Task.isCancelled)
            }
        }
        try await waitUntil { session.recordedRequests.count == 1 }
        #expect(fake.activeRequestCount == 1)

        fake.cancelAll()

        let outcome = await send.value
        #expect(outcome.cancelled)
        #expect(!outcome.callerCancelled)
        try await waitUntil { real.activeRequestCount == 0 && fake.activeRequestCount == 0 }
    }

    @Test("raw requests without a raw stub are passed on too")
    func rawRequests() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(data: Data("pong".utf8)))
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)

        let response = try await fake.send(NetworkRequest(url: testBaseURL.appendingPathComponent("ping")))

        #expect(response.body == Data("pong".utf8))
        #expect(session.recordedRequests.count == 1)
        #expect(fake.sentNetworkRequests.count == 1)
    }

    @Test("route(_:to:) sends one type to another network; other unstubbed types still fail loudly")
    func routesChosenTypes() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune))
        let fake = FakeNetwork()
        fake.route(GetBookRequest.self, to: real)

        #expect(try await fake.send(GetBookRequest(id: 1)) == Self.dune)
        await #expect(throws: FakeNetworkError.noStub(requestType: "ListBooksRequest")) {
            _ = try await fake.send(ListBooksRequest())
        }
        #expect(session.recordedRequests.count == 1)
    }

    @Test("a stub answers before a route, and reset removes the route")
    func stubBeatsRoute() async throws {
        let (real, session) = Self.realNetwork(answering: MockResponse(json: Self.dune))
        let fake = FakeNetwork()
        fake.route(GetBookRequest.self, to: real)
        fake.stub(GetBookRequest.self, with: Self.emma)

        #expect(try await fake.send(GetBookRequest(id: 2)) == Self.emma)
        #expect(session.recordedRequests.isEmpty)

        fake.reset()
        await #expect(throws: FakeNetworkError.noStub(requestType: "GetBookRequest")) {
            _ = try await fake.send(GetBookRequest(id: 2))
        }
    }

    @Test("a routed send and a stubbed one run side by side; the routed one reaches its network once")
    func routedSendRunsOnce() async throws {
        let (search, searchSession) = Self.realNetwork(answering: MockResponse(json: [Self.dune]))
        let fake = FakeNetwork()
        fake.route(ListBooksRequest.self, to: search)
        fake.stub(GetBookRequest.self, with: Self.emma)

        async let list = fake.send(ListBooksRequest())
        async let book = fake.send(GetBookRequest(id: 2))
        let (books, one) = try await (list, book)

        #expect(books == [Self.dune])
        #expect(one == Self.emma)
        #expect(searchSession.recordedRequests.count == 1)
        #expect(fake.totalSendCount == 2)
    }
}
