import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// The same sends, on a `HTTPNetwork` (over a `MockSession`) and on a `FakeNetwork` made with the
/// same configuration (its stubs in place of the transport): the metrics hook and the failure
/// actions hear the same story on both, so a test written against the fake sees what the app's
/// network would report. Logging is the one observer the fake leaves out, as its docs say: there
/// is no request on a wire to log.
@Suite("Observers see the same sends on HTTPNetwork and FakeNetwork")
struct ObserverParityTests {
    private struct Report: Request {
        typealias Response = Data
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("report"))
        }
    }

    /// What the observers heard, in a form both networks can match.
    private struct Heard: Equatable, CustomStringConvertible {
        /// Per metrics-hook call: status, attempts, whether it ended in an error.
        var metrics: [String]
        var failureActions: Int

        var description: String { "metrics \(metrics), failures \(failureActions)" }
    }

    enum Scenario: String, CaseIterable, Sendable {
        case ok, retriedThenOk, notFound
        /// The network is invalidated before the send.
        case invalidated
        /// A will-begin action outlasts the action time limit.
        case actionTimeLimit

        /// The statuses the server answers the attempts with, in order.
        var statuses: [Int] {
            switch self {
            case .ok, .invalidated, .actionTimeLimit: [200]
            case .retriedThenOk: [503, 200]
            case .notFound: [404]
            }
        }

        /// Whether the send fails with the failure actions still in place, and so runs them once.
        /// An invalidated network has dropped its actions: the metrics hook alone hears of it.
        var runsFailureActions: Bool { self == .notFound || self == .actionTimeLimit }
    }

    /// A will-begin action that takes far longer than the scenario's action time limit.
    private struct SlowAction: RequestWillBeginAction {
        func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
            try await Task.sleep(for: .seconds(5))
            return request
        }
    }

    /// Adds the scenario's observers and actions to `network`, and invalidates it when the
    /// scenario says so.
    private static func prepare(_ network: some Network, _ observers: MatrixObservers, for scenario: Scenario) {
        network.add(action: observers.failureAction)
        if scenario == .actionTimeLimit { network.add(action: SlowAction()) }
        if scenario == .invalidated { network.invalidate() }
    }

    private static let baseURL = URL(string: "https://api.example.com/")!

    private static func configuration(_ observers: MatrixObservers) -> NetworkConfiguration {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.retryPolicy = RetryPolicy(baseDelay: .milliseconds(1), jitter: 0)
        configuration.actionTimeout = .milliseconds(100)
        observers.observe(&configuration)
        return configuration
    }

    private static func heard(_ observers: MatrixObservers) -> Heard {
        Heard(
            metrics: observers.metrics.all.map {
                "\($0.statusCode.map(String.init) ?? "none") x\($0.attempts) \($0.error == nil ? "ok" : "error")"
            },
            failureActions: observers.failures.all.count)
    }

    @Test(
        "a send, a retried one, a failing one, one on an invalidated network and one an action outlasts are reported alike",
        arguments: Scenario.allCases)
    func parity(_ scenario: Scenario) async throws {
        let body = Data("{}".utf8)
        let real = MatrixObservers()
        let session = MockSession()
        session.stub(with: scenario.statuses.map { MockResponse(statusCode: $0, data: body) })
        let network = URLSessionNetwork(configuration: Self.configuration(real), session: session)
        Self.prepare(network, real, for: scenario)
        let networkError = await Self.error { _ = try await network.send(Report()) }

        let faked = MatrixObservers()
        let fake = FakeNetwork(configuration: Self.configuration(faked), runsActions: true)
        fake.stub(
            Report.self,
            with: scenario.statuses.map { FakeResponse.networkResponse(NetworkResponse(statusCode: $0, body: body)) })
        Self.prepare(fake, faked, for: scenario)
        let fakeError = await Self.error { _ = try await fake.send(Report()) }

        let onNetwork = Self.heard(real)
        let onFake = Self.heard(faked)
        #expect(onNetwork.metrics.count == 1, "\(onNetwork)")
        #expect(onNetwork.failureActions == (scenario.runsFailureActions ? 1 : 0))
        #expect(onFake == onNetwork, "the fake: \(onFake); the network: \(onNetwork)")
        #expect(String(describing: fakeError) == String(describing: networkError))
        switch scenario {
        case .invalidated: #expect(networkError.map { "\($0)" } == "\(NetworkError.invalidated)")
        case .actionTimeLimit:
            if case .actionTimedOut? = networkError as? NetworkError {
            } else {
                Issue.record("expected actionTimedOut, got \(String(describing: networkError))")
            }
        default: break
        }
        // The invalidated fake recorded nothing, as its documentation says.
        #expect((fake.totalSendCount == 0) == (scenario == .invalidated))
        #expect(!real.logLines.all.isEmpty && faked.logLines.all.isEmpty)
    }

    @Test("a streamed body that breaks after its head is one failed send on both, with its status")
    func brokenBody() async throws {
        let body = Data(repeating: UInt8(ascii: "a"), count: 1_000)
        let server = try LoopbackHTTPServer { _ in
            .reset(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8) + body.prefix(10))
        }
        defer { server.stop() }
        let real = MatrixObservers()
        var configuration = Self.configuration(real)
        configuration.baseURL = server.baseURL
        let network = URLSessionNetwork(configuration: configuration)
        defer { network.invalidate() }
        network.add(action: real.failureAction)
        let networkError = await Self.error { _ = try await network.stream(Report()).collect() }

        let faked = MatrixObservers()
        let fake = FakeNetwork(configuration: Self.configuration(faked), runsActions: true)
        fake.add(action: faked.failureAction)
        fake.stub(Report.self, streaming: FakeStream.body(body, chunkSize: 10).breaking(after: 10))
        let fakeError = await Self.error { _ = try await fake.stream(Report()).collect() }

        #expect(networkError is NetworkError && fakeError is NetworkError, "\(String(describing: networkError))")
        // Both observers heard of the body's end, not of the head: one failed send, with its status.
        try await waitUntil { real.metrics.all.count == 1 && faked.metrics.all.count == 1 }
        let onNetwork = Self.heard(real)
        let onFake = Self.heard(faked)
        #expect(onNetwork == Heard(metrics: ["200 x1 error"], failureActions: 1), "\(onNetwork)")
        #expect(onFake == onNetwork, "the fake: \(onFake); the network: \(onNetwork)")
    }

    /// What `operation` threw, or `nil`.
    private static func error(_ operation: () async throws -> Void) async -> (any Error)? {
        do {
            try await operation()
            return nil
        } catch {
            return error
        }
    }
}
