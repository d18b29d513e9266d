import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Cancellations that land just as a transfer completes. FoundationNetworking stops the process
/// ("a behaviour for a task that in not in the registry") when a task's cancellation reports its
/// failure after the task has left the session's registry, which a session with a URL cache
/// allowed; these sends race the two on purpose, hundreds of times.
@Suite("A cancellation that meets a transfer's completion ends the send once, and the process lives")
struct CancelAtCompletionTests {
    private static let rounds = 300

    @Test("sends cancelled at every moment from before the head to after the body", arguments: TransportKind.allCases)
    func cancelAroundCompletion(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data(repeating: 0x61, count: 2_048)) }
        defer { server.stop() }
        let outcomes = try await kind.withNetwork(baseURL: server.baseURL) { network in
            var outcomes = (succeeded: 0, cancelled: 0)
            for round in 0..<Self.rounds {
                let send = Task { try await network.send(NetworkRequest(url: server.baseURL)) }
                // From 0 to about 1.5 ms, around the time a loopback exchange of this size takes.
                let delay = Duration.microseconds(round % 30 * 50)
                if delay > .zero { try await Task.sleep(for: delay) }
                send.cancel()
                switch await send.result {
                case .success(let response):
                    #expect(response.body.count == 2_048)
                    outcomes.succeeded += 1
                case .failure(NetworkError.cancelled): outcomes.cancelled += 1
                case .failure(let error): Issue.record("round \(round): \(error)")
                }
            }
            #expect(network.activeRequestCount == 0)
            return outcomes
        }
        #expect(outcomes.succeeded + outcomes.cancelled == Self.rounds)
    }

    @Test("streamed bodies let go of at every moment around their end", arguments: TransportKind.allCases)
    func dropBodyAroundCompletion(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data(repeating: 0x62, count: 4_096)) }
        defer { server.stop() }
        try await kind.withTransport { transport async throws in
            for round in 0..<Self.rounds {
                let reading = Task {
                    let response = try await transport.send(TransportRequest(method: .get, url: server.baseURL))
                    var iterator = response.body.makeAsyncIterator()
                    _ = try await iterator.next()
                }
                let delay = Duration.microseconds(round % 30 * 50)
                if delay > .zero { try await Task.sleep(for: delay) }
                reading.cancel()
                _ = await reading.result
            }
        }
    }
}
