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

        /// The statuses the server answers the attempts with, in order.
        var statuses: [Int] {
            switch self {
            case .ok: [200]
            case .retriedThenOk: [503, 200]
            case .notFound: [404]
            }
        }
    }

    private static let baseURL = URL(string: "https://api.example.com/")!

    private static func configuration(_ observers: MatrixObservers) -> NetworkConfiguration {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.retryPolicy = RetryPolicy(baseDelay: .milliseconds(1), jitter: 0)
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

    @Test("a send, a retried send and a failing one are reported alike", arguments: Scenario.allCases)
    func parity(_ scenario: Scenario) async throws {
        let body = Data("{}".utf8)
        let real = MatrixObservers()
        let session = MockSession()
        session.stub(with: scenario.statuses.map { MockResponse(statusCode: $0, data: body) })
        let network = URLSessionNetwork(configuration: Self.configuration(real), session: session)
        network.add(action: real.failureAction)
        _ = try? await network.send(Report())

        let faked = MatrixObservers()
        let fake = FakeNetwork(configuration: Self.configuration(faked), runsActions: true)
        fake.add(action: faked.failureAction)
        fake.stub(
            Report.self,
            with: scenario.statuses.map { FakeResponse.networkResponse(NetworkResponse(statusCode: $0, body: body)) })
        _ = try? await fake.send(Report())

        let onNetwork = Self.heard(real)
        let onFake = Self.heard(faked)
        #expect(onNetwork.metrics.count == 1, "\(onNetwork)")
        #expect(onNetwork.failureActions == (scenario == .notFound ? 1 : 0))
        #expect(onFake == onNetwork, "the fake: \(onFake); the network: \(onNetwork)")
        #expect(!real.logLines.all.isEmpty && faked.logLines.all.isEmpty)
    }
}
