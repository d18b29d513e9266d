import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Cancelling in bulk and observing activity")
struct BulkCancellationAndActivityTests {
    private struct Other: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("other"))
        }
    }

    @Test("cancelAll(of:) cancels only that request type; cancelAll() cancels the rest")
    func cancelByType() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }

        let users = (0..<5).map { _ in Task { try await network.send(ListUsers()) } }
        let others = (0..<3).map { _ in Task { try await network.send(Other()) } }
        try await waitUntil { network.activeRequestCount == 8 }

        network.cancelAll(of: ListUsers.self)
        for task in users {
            await #expect(throws: NetworkError.self) { try await task.value }
        }
        #expect(network.activeRequestCount == 3)

        network.cancelAll()
        for task in others {
            do {
                try await task.value
                Issue.record("expected cancellation")
            } catch {
                #expect((error as? NetworkError)?.isCancellation == true)
            }
        }
        #expect(network.activeRequestCount == 0)
    }

    @Test("cancelAll also ends sends that wait in the queue, or in an action under actionTimeout")
    func cancelEverywhere() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: longDelay))
        let network = makeNetwork(session: session) { configuration in
            configuration.maximumConcurrentRequests = 1
            configuration.coalescesIdenticalRequests = false
            // Under a time limit an action runs in a task of its own, which cancelAll cancels.
            configuration.actionTimeout = .seconds(60)
        }
        network.add(
            action: WillBegin { request in
                if request.url.path.hasSuffix("slow-action") { try await Task.sleep(for: longDelay) }
                return request
            })
        struct SlowAction: Request {
            typealias Response = Void
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL.appendingPathComponent("slow-action"))
            }
        }
        let onWire = Task { try await network.send(Other()) }
        try await waitUntil { session.recordedRequests.count == 1 }
        let queued = Task { try await network.send(Other()) }
        let inAction = Task { try await network.send(SlowAction()) }
        try await waitUntil { network.activeRequestCount == 3 }
        let start = ContinuousClock.now

        network.cancelAll()

        for task in [onWire, queued, inAction] {
            await #expect(throws: NetworkError.self) { try await task.value }
        }
        #expect(ContinuousClock.now - start < promptBound, "the sends would otherwise wait out the long delay")
    }

    /// Both sends stay on the wire until the test answers them, so both are in progress at once:
    /// with answers due after a delay, the first send could end before the second's task ran, on
    /// two busy cores, and the count would never reach two.
    @Test("activity updates report the number of sends in progress")
    func activity() async throws {
        let session = HeldSession()
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.coalescesIdenticalRequests = false
        let network = URLSessionNetwork(configuration: configuration, session: session)
        let updates = network.activityUpdates()
        let seen = Task {
            var values: [Int] = []
            for await value in updates {
                values.append(value)
                if values.count >= 2 && value == 0 { break }
            }
            return values
        }

        async let one: Void = network.send(Other())
        async let two: Void = network.send(Other())
        try await waitUntil { session.heldCount == 2 }
        session.answer(statusCode: 204)
        _ = try await (one, two)

        let values = await seen.value
        #expect(values.first == 0)
        #expect(values.max() == 2)
        #expect(values.last == 0)
    }
}
