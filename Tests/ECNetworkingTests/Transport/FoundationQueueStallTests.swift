import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// FoundationNetworking runs every session's work on one serial queue for the whole process,
    /// and making, resuming and cancelling a task wait for it. While a transfer holds that queue,
    /// sends over either kind of `URLSession` network must wait off the concurrency runtime's
    /// threads (two on a 2-core machine): a send that waited on one would stall every task of the
    /// process, timers and unrelated tests included.
    @Suite("A busy FoundationNetworking queue never stalls the concurrency runtime's threads", .serialized)
    struct FoundationQueueStallTests {
        /// Holds FoundationNetworking's shared queue: a session whose delegate runs on that queue
        /// (as the library's transport does) and, at a response's head, waits for `release`.
        private final class QueueHolder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
            // `@unchecked`: `NSObject` is not `Sendable`; both properties are, a counter and a semaphore.
            let holding = Counter()
            let release = DispatchSemaphore(value: 0)

            func urlSession(
                _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
            ) {
                holding.increment()
                _ = release.wait(timeout: .now() + 30)
                completionHandler(.allow)
            }
        }

        @Test(
            "sends that start while the queue is held leave the runtime free, then succeed",
            arguments: [false, true])
        func busyQueue(overOwnSession: Bool) async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("ok".utf8)) }
            defer { server.stop() }
            let holder = QueueHolder()
            let holdingSession = URLSession(
                configuration: .ephemeral, delegate: holder, delegateQueue: InlineOperationQueue())
            defer { holdingSession.finishTasksAndInvalidate() }
            holdingSession.dataTask(with: server.baseURL.appendingPathComponent("hold")).resume()
            try await waitUntil { holder.holding.count == 1 }

            // Released from a thread of its own, whatever the runtime's threads are doing.
            let holdTime = 4.0
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: holdTime)
                holder.release.signal()
            }

            let configuration = NetworkConfiguration(baseURL: server.baseURL)
            let ownSession = URLSession(configuration: .ephemeral)
            defer { ownSession.finishTasksAndInvalidate() }
            // The library's own transport, or a session of the app's own.
            let network =
                overOwnSession
                ? URLSessionNetwork(configuration: configuration, session: ownSession)
                : URLSessionNetwork(configuration: configuration)
            // More sends than a machine of up to 16 cores has runtime threads, each of which would
            // have waited for the queue on one of them.
            let start = ContinuousClock.now
            let sends = (0..<16).map { _ in
                Task { try await network.send(NetworkRequest(url: server.baseURL)) }
            }
            // A task that only needs a runtime thread, a few times over.
            let canary = Task {
                for _ in 0..<5 { try await Task.sleep(for: .milliseconds(10)) }
                return ContinuousClock.now - start
            }
            let canaryTime = try await canary.value
            #expect(canaryTime < .seconds(holdTime / 2), "the runtime was stalled for \(canaryTime)")
            for send in sends {
                #expect(try await send.value.statusCode == 200)
            }
        }
    }
#endif
