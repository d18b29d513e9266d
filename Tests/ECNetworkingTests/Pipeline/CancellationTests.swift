import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Cancellation ends every send once, promptly, with NetworkError.cancelled")
struct CancellationTests {
    private let clock = ContinuousClock()

    private func expectCancelled<T>(_ task: Task<T, any Error>) async {
        do {
            _ = try await task.value
            Issue.record("expected cancellation, got a value")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true, "got \(error)")
        }
    }

    @Test("a task cancelled before it sends sends nothing")
    func cancelledBeforeSend() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await network.send(ListUsers())
        }
        await expectCancelled(task)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("cancelling in flight cancels the session task")
    func cancelInFlight() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: longDelay))
        let network = makeNetwork(session: session)
        let start = clock.now
        let task = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.recordedRequests.count == 1 }
        task.cancel()
        await expectCancelled(task)
        #expect(clock.now - start < promptBound)
        try await waitUntil { session.cancelledRequestCount == 1 }
    }

    @Test(
        "cancelling while the answer is decoded ends the send with cancelled, for a typed, a storage and a raw send")
    func cancelWhileDecoding() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let decoding = Counter()
        let task = Task { try await network.send(SlowlyDecoded(started: decoding)) }
        try await waitUntil { decoding.count == 1 }
        task.cancel()
        await expectCancelled(task)

        // A send through a store decodes in a step of its own; its value is dropped, and not stored.
        let store = InMemoryResponseStore()
        let stored = Task {
            try await network.send(SlowlyDecoded(started: decoding), storage: store, policy: .networkOnly).value
        }
        try await waitUntil { decoding.count == 2 }
        stored.cancel()
        await expectCancelled(stored)
        #expect(store.count == 0)

        // A raw send has no decoding: its last step is the completed actions.
        let completing = Counter()
        network.add(
            action: Completed { _, response in
                completing.increment()
                // Holds the send, without waking on cancellation, until the test has cancelled it.
                let deadline = ContinuousClock.now + longDelay
                while !Task.isCancelled && ContinuousClock.now < deadline { usleep(1_000) }
                return .proceed(response)
            })
        let raw = Task { try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("raw"))) }
        try await waitUntil { completing.count == 1 }
        raw.cancel()
        await expectCancelled(raw)
    }

    @Test("cancelling while an async action waits ends the send")
    func cancelInAsyncAction() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let entered = Counter()
        network.add(
            action: WillBegin { request in
                entered.increment()
                try await Task.sleep(for: .seconds(30))
                return request
            })
        let task = Task { try await network.send(ListUsers()) }
        try await waitUntil { entered.count == 1 }
        task.cancel()
        await expectCancelled(task)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("cancelling while a completion-style action holds its handler ends the send at once")
    func cancelInCompletionAction() async throws {
        final class Holder: @unchecked Sendable {
            // Safe: written once before the test reads it, under the lock.
            let lock = NSLock()
            var completion: RequestWillBeginAction.RequestCompletion?
        }
        struct NeverAnswers: RequestWillBeginAction {
            let holder: Holder
            func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
                holder.lock.withLock { holder.completion = completion }
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let holder = Holder()
        network.add(action: NeverAnswers(holder: holder))
        let task = Task { try await network.send(ListUsers()) }
        try await waitUntil { holder.lock.withLock { holder.completion != nil } }
        task.cancel()
        await expectCancelled(task)
        // A late answer after cancellation is ignored rather than resuming twice.
        holder.lock.withLock { holder.completion }?(.success(NetworkRequest(url: testBaseURL)))
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("cancelling while queued behind the concurrency limit ends the send and frees nothing twice")
    func cancelWhileQueued() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.pathSuffix("blocker"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session) { $0.maximumConcurrentRequests = 1 }
        let blocker = Task {
            try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("blocker")))
        }
        try await waitUntil { session.recordedRequests.count == 1 }
        let queued = Task { try await network.send(ListUsers()) }
        try await waitUntil { network.admission?.waitingCount == 1 }

        queued.cancel()

        await expectCancelled(queued)
        #expect(network.admission?.waitingCount == 0)
        blocker.cancel()
        _ = try? await blocker.value
        // The one slot is free again, exactly once: a send goes through and nothing else was sent.
        _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("after")))
        #expect(session.recordedRequests.compactMap { $0.url?.lastPathComponent } == ["blocker", "after"])
        #expect(network.admission?.inFlight == 0)
    }

    @Test("the completion handler is called exactly once on cancel")
    func completionOnCancel() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User](), delay: .seconds(30)))
        let network = makeNetwork(session: session)
        let calls = EventLog()
        let cancellable = network.send(ListUsers()) { result in
            switch result {
            case .success: calls.append("success")
            case .failure(let error):
                calls.append((error as? NetworkError)?.isCancellation == true ? "cancelled" : "\(error)")
            }
        }
        try await waitUntil { session.recordedRequests.count == 1 }
        cancellable.cancel()
        cancellable.cancel()
        try await waitUntil { !calls.all.isEmpty }
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.all == ["cancelled"])
    }
}

/// A request whose decoding takes until its task is cancelled (or 5 s), so a test can cancel the
/// send while it decodes.
private struct SlowlyDecoded: StorableRequest {
    let started: Counter
    var maximumStorageAge: Duration { .seconds(60) }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Int {
        started.increment()
        let deadline = ContinuousClock.now + longDelay
        while !Task.isCancelled && ContinuousClock.now < deadline { usleep(1_000) }
        return 1
    }
}
