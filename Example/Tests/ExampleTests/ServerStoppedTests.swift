import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("A server that goes away", .timeLimit(.minutes(1)))
struct ServerStoppedTests {
    private let clock = ContinuousClock()

    @Test("a server stopped mid-test gives a transport error, not a hang")
    func transportError() async throws {
        let server = try await DemoServer.start()
        // Without the retry policy, whose retries of a refused connection would end in retriesExhausted.
        let client = makeClient(for: server) { $0.retryPolicy = nil }
        _ = try await client.send(EchoRequest(requiresAuthentication: false))
        await server.stop()
        let start = clock.now

        let error = await #expect(throws: NetworkError.self) {
            try await client.send(EchoRequest(requiresAuthentication: false))
        }

        let elapsed = clock.now - start
        guard case .transport(let urlError)? = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        report("request to a stopped server: URLError \(urlError.code.rawValue) after \(format(elapsed))")
        // Refused at once; the bar only rules out waiting for the 60 s timeout, with room for a loaded machine.
        #expect(elapsed < .seconds(20))
    }

    @Test("with the retry policy, a refused connection is retried, then reported with the transport error")
    func transportErrorAfterRetries() async throws {
        let server = try await DemoServer.start()
        let client = makeClient(for: server)
        _ = try await client.send(EchoRequest(requiresAuthentication: false))
        await server.stop()

        let error = await #expect(throws: NetworkError.self) {
            try await client.send(EchoRequest(requiresAuthentication: false))
        }

        guard case .retriesExhausted(let attempts, let lastError)? = error,
            case .transport? = lastError as? NetworkError
        else {
            Issue.record("expected retriesExhausted after a transport error, got \(String(describing: error))")
            return
        }
        #expect(attempts == 3)
    }
}
