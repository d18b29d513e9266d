import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("FakeNetwork cancels in bulk, counts its sends and can be invalidated, like the real network")
struct FakeNetworkLifecycleTests {
    private let clock = ContinuousClock()

    @Test("cancelAll ends every send with cancelled, and the caller's task carries on")
    func cancelAllCancelsSendsNotCallers() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .seconds(30))
        fake.stub(ListBooksRequest.self, with: [Book(id: 2, title: "Emma")])
        let start = clock.now
        let caller = Task { () -> (cancelled: Bool, callerCancelled: Bool, next: [Book]) in
            var cancelled = false
            do {
                _ = try await fake.send(GetBookRequest(id: 1))
            } catch {
                cancelled = (error as? NetworkError)?.isCancellation == true
            }
            // The caller's task is not cancelled, so it can send again.
            return (cancelled, Task.isCancelled, try await fake.send(ListBooksRequest()))
        }
        try await waitUntil { fake.activeRequestCount == 1 }

        fake.cancelAll()
        let outcome = try await caller.value

        #expect(outcome.cancelled)
        #expect(!outcome.callerCancelled)
        #expect(outcome.next == [Book(id: 2, title: "Emma")])
        #expect(clock.now - start < .seconds(20), "the 30 s delay must not be waited out")
        #expect(fake.activeRequestCount == 0)
    }

    @Test("cancelAll(of:) cancels only the sends of that type")
    func cancelAllOfType() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .seconds(30))
        fake.stub(ListBooksRequest.self, with: [Book(id: 2, title: "Emma")], delay: .milliseconds(300))
        let book = Task { try await fake.send(GetBookRequest(id: 1)) }
        let list = Task { try await fake.send(ListBooksRequest()) }
        try await waitUntil { fake.activeRequestCount == 2 }

        fake.cancelAll(of: GetBookRequest.self)

        let error = await #expect(throws: NetworkError.self) { try await book.value }
        #expect(error?.isCancellation == true)
        #expect(try await list.value == [Book(id: 2, title: "Emma")])
    }

    /// Each send waits in a will-begin action until both are in progress, so the count reaches two
    /// however the sends' tasks are scheduled: with the stub's delay alone, on two busy cores the
    /// first send could end before the second's task ran.
    @Test("activeRequestCount and activityUpdates follow the sends in progress")
    func countsActivity() async throws {
        let fake = FakeNetwork(runsActions: true)
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .milliseconds(200))
        fake.add(
            action: WillBegin { request in
                try await waitUntil { fake.activeRequestCount == 2 }
                return request
            })
        let updates = fake.activityUpdates()
        #expect(fake.activeRequestCount == 0)

        async let first = fake.send(GetBookRequest(id: 1))
        async let second = fake.send(GetBookRequest(id: 2))
        _ = try await (first, second)

        var seen: [Int] = []
        for await count in updates {
            seen.append(count)
            if seen.count == 5 { break }
        }
        #expect(seen.first == 0)
        #expect(seen.max() == 2)
        #expect(seen.last == 0)
        #expect(fake.activeRequestCount == 0)
    }

    @Test("invalidate cancels the sends in progress and fails later sends with invalidated, recording none")
    func invalidate() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .seconds(30))
        let inFlight = Task { try await fake.send(GetBookRequest(id: 1)) }
        try await waitUntil { fake.activeRequestCount == 1 }

        fake.invalidate()

        let cancelled = await #expect(throws: NetworkError.self) { try await inFlight.value }
        #expect(cancelled?.isCancellation == true)
        await #expect {
            _ = try await fake.send(GetBookRequest(id: 2))
        } throws: { error in
            guard case .invalidated? = error as? NetworkError else { return false }
            return true
        }
        #expect(fake.totalSendCount == 1)
    }

    @Test("finishSendsAndInvalidate lets the sends in progress end, then returns")
    func finishSendsAndInvalidate() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .milliseconds(200))
        let inFlight = Task { try await fake.send(GetBookRequest(id: 1)) }
        try await waitUntil { fake.activeRequestCount == 1 }

        await fake.finishSendsAndInvalidate()

        #expect(fake.activeRequestCount == 0)
        #expect(try await inFlight.value == Book(id: 1, title: "Dune"))
        await #expect {
            _ = try await fake.send(GetBookRequest(id: 2))
        } throws: { error in
            guard case .invalidated? = error as? NetworkError else { return false }
            return true
        }
    }

    @Test("code that holds any Network can cancel and count through the protocol")
    func throughTheProtocol() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .seconds(30))
        let network: any Network = fake
        let send = Task { try await network.send(GetBookRequest(id: 1)) }
        try await waitUntil { network.activeRequestCount == 1 }

        network.cancelAll()

        let error = await #expect(throws: NetworkError.self) { try await send.value }
        #expect(error?.isCancellation == true)
    }
}
