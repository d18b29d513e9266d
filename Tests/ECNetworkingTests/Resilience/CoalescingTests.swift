import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Coalescing identical GETs in flight")
struct CoalescingTests {
    @Test("ten identical GETs at once share one transport call and all get the result")
    func identicalGetsShareOneCall() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "Ada")], delay: .milliseconds(100)))
        let network = makeNetwork(session: session)

        let results = try await withThrowingTaskGroup(of: [User].self) { group in
            for _ in 0..<10 { group.addTask { try await network.send(ListUsers()) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 10)
        #expect(results.allSatisfy { $0 == [User(id: 1, name: "Ada")] })
        #expect(session.recordedRequests.count == 1)
    }

    @Test("requests that differ in headers, or opt out, or are not GETs are sent separately")
    func differentRequestsAreNotShared() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .milliseconds(50)))
        let network = makeNetwork(session: session)
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
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 2, name: "Bo")], delay: .seconds(2)))
        let network = makeNetwork(session: session)

        let first = Task { try await network.send(ListUsers()) }
        let second = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.recordedRequests.count == 1 && network.coalescing.waiterCount == 2 }
        first.cancel()

        do {
            _ = try await first.value
            Issue.record("the cancelled caller should not get a value")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true)
        }
        #expect(try await second.value == [User(id: 2, name: "Bo")])
        #expect(session.cancelledRequestCount == 0)

        let lonely = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.recordedRequests.count == 2 }
        lonely.cancel()
        _ = try? await lonely.value
        try await waitUntil { session.cancelledRequestCount == 1 }
    }

    @Test("coalescing can be switched off for the whole network")
    func switchedOff() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: .milliseconds(50)))
        let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }

        async let one = network.send(ListUsers())
        async let two = network.send(ListUsers())
        _ = try await (one, two)

        #expect(session.recordedRequests.count == 2)
    }
}
