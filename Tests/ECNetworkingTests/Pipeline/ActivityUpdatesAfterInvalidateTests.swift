import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// `activityUpdates()`'s documentation: the stream ends when its consumer stops iterating, not
/// when the network is invalidated; it then reports 0 and waits. An activity indicator's loop,
/// started once for the app's life, must be ended by cancelling its task.
@Suite("activityUpdates() outlives invalidate()", .timeLimit(.minutes(1)))
struct ActivityUpdatesAfterInvalidateTests {
    @Test("after invalidate() the stream reports 0 and goes on waiting, until its task is cancelled")
    func reportsZeroAndWaits() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: longDelay))
        let network = makeNetwork(session: session)
        let updates = network.activityUpdates()
        let seen = Log<Int>()
        let finished = Counter()
        let observing = Task {
            for await count in updates { seen.append(count) }
            finished.increment()
        }

        let send = Task { try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("held"))) }
        try await waitUntil { seen.all.last == 1 }
        network.invalidate()
        await #expect(throws: NetworkError.self) { _ = try await send.value }
        try await waitUntil { seen.all.last == 0 }

        // A stream that ended at invalidate() would end within moments of the 0; this one waits.
        try await Task.sleep(for: .milliseconds(300))
        #expect(finished.count == 0, "the stream ended at invalidate()")
        #expect(seen.all == [0, 1, 0])

        observing.cancel()
        await observing.value
        #expect(finished.count == 1)
    }
}
