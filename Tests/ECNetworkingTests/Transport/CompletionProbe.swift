import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one call of a session task's completion carried.
struct TransportResult: Sendable {
    let data: Data?
    let response: HTTPURLResponse?
    let error: (any Error)?

    /// The error as a ``NetworkError``, when it is one.
    var networkError: NetworkError? { error as? NetworkError }

    /// Whether the error is `URLError(.cancelled)`, what a cancelled session task reports.
    var isURLCancellation: Bool { (error as? URLError)?.code == .cancelled }
}

/// A completion that records every call, so a test can await the first one and then check that
/// no second one follows.
final class CompletionProbe: Sendable {
    private struct State {
        var results: [TransportResult] = []
        var waiter: CheckedContinuation<TransportResult, Never>?
    }

    private let state = LockedState(State())

    /// The completion to hand to `dataTask(for:completion:)`.
    var completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
        { data, response, error in
            self.record(TransportResult(data: data, response: response as? HTTPURLResponse, error: error))
        }
    }

    /// How many times the completion was called.
    var callCount: Int {
        state.withLock { $0.results.count }
    }

    /// The first call, once it happens.
    func firstResult() async -> TransportResult {
        await withCheckedContinuation { continuation in
            let existing = state.withLock { state -> TransportResult? in
                if let first = state.results.first { return first }
                state.waiter = continuation
                return nil
            }
            if let existing { continuation.resume(returning: existing) }
        }
    }

    private func record(_ result: TransportResult) {
        let waiter = state.withLock { state -> CheckedContinuation<TransportResult, Never>? in
            state.results.append(result)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }
}

extension URLSessionTransport {
    /// Sends `request` through the transport itself (no network, no pipeline) and returns the
    /// first completion, after making sure no second one follows.
    func send(_ request: URLRequest) async throws -> TransportResult {
        let probe = CompletionProbe()
        dataTask(for: request, completion: probe.completion).resume()
        let result = await probe.firstResult()
        try await Task.sleep(for: .milliseconds(50))
        #expect(probe.callCount == 1)
        return result
    }

    /// Sends a GET for `path` on `server`.
    func get(_ path: String, on server: LoopbackHTTPServer, headers: [String: String] = [:]) async throws
        -> TransportResult
    {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }
}
