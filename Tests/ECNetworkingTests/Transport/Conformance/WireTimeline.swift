import Foundation
import TestSupport

@testable import ECNetworking

/// When a request reached a loopback server and when its connection closed, both taken on threads
/// of their own (the server's, and a watcher's) rather than in a test task: on two busy cores the
/// test pool's threads can be taken for hundreds of milliseconds, which would move the moment a
/// task sees an error, but not the moment the transport dropped the connection.
final class WireTimeline: Sendable {
    private struct Marks {
        var requestArrived: ContinuousClock.Instant?
        var connectionClosed: ContinuousClock.Instant?
    }

    private let marks = LockedState(Marks())

    /// The moment the request's connection closed, once it has.
    var connectionClosed: ContinuousClock.Instant? {
        marks.withLock { $0.connectionClosed }
    }

    /// To call in the server's handler, on the server's thread.
    func requestArrived() {
        let now = ContinuousClock.now
        marks.withLock { $0.requestArrived = now }
    }

    /// Watches `server` on a thread of its own, every millisecond, for up to `limit`, and marks the
    /// moment the connection the request came on is gone.
    func watchConnection(of server: LoopbackHTTPServer, for limit: Duration = .seconds(60)) {
        Thread { [self] in
            let end = ContinuousClock.now + limit
            while ContinuousClock.now < end {
                let arrived = marks.withLock { $0.requestArrived != nil }
                if arrived && server.openConnectionCount == 0 {
                    let now = ContinuousClock.now
                    marks.withLock { $0.connectionClosed = now }
                    return
                }
                usleep(1_000)
            }
        }.start()
    }
}
