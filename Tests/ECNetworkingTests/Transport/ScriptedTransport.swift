import Foundation
import TestSupport

@testable import ECNetworking

/// An in-memory ``HTTPTransport`` whose exchanges a test scripts: each send runs `script` with
/// the request and its index, and is recorded.
final class ScriptedTransport: HTTPTransport {
    typealias Script = @Sendable (TransportRequest, Int) async throws -> TransportResponse

    private let script: Script
    private let sent = LockedState([TransportRequest]())

    init(_ script: @escaping Script) {
        self.script = script
    }

    /// Every request sent so far, in order.
    var requests: [TransportRequest] { sent.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let index = sent.withLock { sent in
            sent.append(request)
            return sent.count - 1
        }
        return try await script(request, index)
    }

    /// A body that never ends, and ends with `CancellationError` when its reader is cancelled.
    static func stalledBody() -> ByteStream {
        ByteStream(next: {
            try await Task.sleep(for: .seconds(3_600))
            return nil
        })
    }

    /// A body of `count` chunks of `size` bytes; `pulls` counts the chunks read.
    static func body(chunks count: Int, of size: Int, pulls: Counter) -> ByteStream {
        ByteStream(next: {
            guard pulls.count < count else { return nil }
            pulls.increment()
            return Data(repeating: 0x61, count: size)
        })
    }
}

/// A wait that ignores cancellation, as a faulty transport might, until the test opens it.
final class IgnoringGate: Sendable {
    private let state = LockedState((isOpen: false, waiters: [CheckedContinuation<Void, Never>]()))

    /// How many are waiting.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Waits until ``open()``, whatever happens to the calling task.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Lets every waiter go, now and later.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
