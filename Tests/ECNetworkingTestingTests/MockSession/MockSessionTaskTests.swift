import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockSession tasks")
struct MockSessionTaskTests {
    @Test("resume racing cancel answers or cancels each task once, and the counters agree")
    func resumeRacingCancel() async {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let request = URLRequest(url: URL(string: "https://api.example.com/race")!)
        let answered = Counter()
        let cancelled = Counter()
        let iterations = 10_000
        // On a thread of its own: the loop blocks, and must not hold up the tests sharing the pool.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                for _ in 0..<iterations {
                    let task = session.dataTask(for: request) { _, _, error in
                        if error == nil { answered.increment() } else { cancelled.increment() }
                    }
                    DispatchQueue.concurrentPerform(iterations: 2) { index in
                        if index == 0 { task.resume() } else { task.cancel() }
                    }
                }
                done.resume()
            }
        }

        #expect(answered.count + cancelled.count == iterations)
        #expect(session.cancelledRequestCount == cancelled.count)
        // One task at a time: a task counted as running but never finished would show here.
        #expect(session.maximumConcurrentRequests <= 1)
        #expect(session.recordedRequests.count >= answered.count)
    }
}
