import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A network over `session` that coalesces identical GETs, which networks do only when asked.
func makeCoalescingNetwork(
    session: some Session,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> URLSessionNetwork {
    var configuration = NetworkConfiguration(baseURL: testBaseURL)
    configuration.coalescesIdenticalRequests = true
    configure(&configuration)
    return URLSessionNetwork(configuration: configuration, session: session)
}

@Suite("Coalescing identical GETs in flight")
struct CoalescingTests {
    @Test("coalescing is off by default: two identical GETs at once make two transport calls")
    func offByDefault() async throws {
        #expect(NetworkConfiguration(baseURL: testBaseURL).coalescesIdenticalRequests == false)
        let session = HeldSession()
        let network = URLSessionNetwork(configuration: .init(baseURL: testBaseURL), session: session)

        async let one = network.send(ListUsers())
        async let two = network.send(ListUsers())
        try await waitUntil { session.heldCount == 2 }
        session.answer(body: Data("[]".utf8))
        _ = try await (one, two)

        #expect(session.startedPaths.count == 2)
    }

    /// The call stays on the wire until all ten callers are in it: with a response due after a
    /// delay instead, a caller whose task had not started before the delay ran out (two busy cores
    /// can hold a task back for longer) made a second call, though nothing was wrong.
    @Test("ten identical GETs at once share one transport call and all get the result", .timeLimit(.minutes(1)))
    func identicalGetsShareOneCall() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session)
        let ada = try JSONEncoder().encode([User(id: 1, name: "Ada")])

        let results = try await withThrowingTaskGroup(of: [User].self) { group in
            for _ in 0..<10 { group.addTask { try await network.send(ListUsers()) } }
            try await waitUntil { network.coalescing.waiterCount == 10 && session.heldCount == 1 }
            #expect(session.answer(body: ada) == 1)
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 10)
        #expect(results.allSatisfy { $0 == [User(id: 1, name: "Ada")] })
        #expect(session.startedPaths.count == 1)
    }

    @Test("requests that differ in headers, or opt out, or are not GETs are sent separately")
    func differentRequestsAreNotShared() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .milliseconds(50)))
        let network = makeCoalescingNetwork(session: session)
        struct Variant: Request {
            typealias Response = Void
            let method: HTTPMethod
            let header: String
            let coalesces: Bool
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                var request = NetworkRequest(method: method, url: baseURL)
                request.headers["X-Variant"] = header
                request.customProperties[AllowsCoalescing.self] = coalesces
                return request
            }
        }
        let variants = [
            Variant(method: .get, header: "a", coalesces: true),
            Variant(method: .get, header: "b", coalesces: true),
            Variant(method: .get, header: "a", coalesces: false),
            Variant(method: .put, header: "a", coalesces: true),
            Variant(method: .put, header: "a", coalesces: true),
        ]

        try await withThrowingTaskGroup(of: Void.self) { group in
            for variant in variants { group.addTask { try await network.send(variant) } }
            try await group.waitForAll()
        }

        #expect(session.recordedRequests.count == 5)
    }

    @Test("cancelling one caller does not cancel the others; cancelling all cancels the call")
    func cancellingOneCaller() async throws {
        // The response arrives only when the test answers it, so the cancellation always comes first.
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session)
        let bo = try JSONEncoder().encode([User(id: 2, name: "Bo")])

        let first = Task { try await network.send(ListUsers()) }
        let second = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.heldCount == 1 && network.coalescing.waiterCount == 2 }
        first.cancel()

        do {
            _ = try await first.value
            Issue.record("the cancelled caller should not get a value")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true)
        }
        #expect(session.answer(body: bo) == 1)
        #expect(try await second.value == [User(id: 2, name: "Bo")])
        #expect(session.cancelledCount == 0)

        let lonely = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.heldCount == 1 }
        lonely.cancel()
        _ = try? await lonely.value
        try await waitUntil { session.cancelledCount == 1 }
        #expect(session.startedPaths.count == 2)
    }

    @Test("identical GETs with different cache policies are sent separately")
    func cachePolicyIsPartOfIdentity() async throws {
        let session = HeldSession()
        let network = makeCoalescingNetwork(session: session)
        let url = testBaseURL.appendingPathComponent("users")
        func request(_ policy: URLRequest.CachePolicy?) -> NetworkRequest {
            var request = NetworkRequest(url: url)
            request.cachePolicy = policy
            return request
        }

        async let plain = network.send(request(nil))
        async let reload = network.send(request(.reloadIgnoringLocalCacheData))
        async let reloadToo = network.send(request(.reloadIgnoringLocalCacheData))
        // Both distinct requests on the wire before the answer: the three callers can all be
        // registered while the second one has yet to reach the session, which a loaded run saw
        // (it was never answered, and timed out after 60 s).
        try await waitUntil { network.coalescing.waiterCount == 3 && session.heldCount == 2 }
        session.answer()
        _ = try await (plain, reload, reloadToo)

        #expect(session.startedPaths.count == 2)
    }

    @Test("each caller runs its began actions once; the log says which one joined the call on the wire")
    func beganActionsAndLogOfAFollower() async throws {
        let session = HeldSession()
        let lines = Log<String>()
        let network = makeCoalescingNetwork(session: session) {
            $0.logging = true
            $0.logSink = LogSink { lines.append($0) }
        }
        let events = EventLog()
        network.add(action: RecordingAction(name: "recorder", log: events))

        let leader = Task { try await network.send(ListUsers()) }
        // The leader's request line is written as its request goes on the wire, which can be just
        // after the session holds it: the follower starts once the line is there, so the order of
        // the lines says which send joined.
        try await waitUntil { session.heldCount == 1 && lines.all.contains { $0.hasPrefix("-->") } }
        let follower = Task { try await network.send(ListUsers()) }
        try await waitUntil { network.coalescing.waiterCount == 2 && events.all.count(of: "recorder.began") == 2 }
        session.answer(body: Data("[]".utf8))
        _ = try await (leader.value, follower.value)

        #expect(session.startedPaths.count == 1)
        #expect(events.all.count(of: "recorder.began") == 2)
        #expect(events.all.count(of: "recorder.completed") == 2)
        let requestLines = lines.all.filter { $0.hasPrefix("-->") }
        #expect(requestLines.count == 2)
        #expect(requestLines.first?.contains("joined") == false)
        #expect(requestLines.last?.contains("joined an identical request on the wire") == true)
    }
}

extension Array where Element: Equatable {
    fileprivate func count(of element: Element) -> Int {
        self.count { $0 == element }
    }
}
