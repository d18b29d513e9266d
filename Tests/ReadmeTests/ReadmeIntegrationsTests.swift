import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if Logging
    import Logging
#endif
#if Tracing
    import Tracing
#endif
#if Metrics
    import Metrics
#endif

/// The README's "Logs, traces and metrics" snippets, each run as written.
@Suite("README: logs, traces and metrics")
struct ReadmeIntegrationsTests {
    @Test("an event sink gets each entry with its level and fields, without any trait")
    func eventSink() async throws {
        let alerts = Log<String>()
        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!, logging: true)
        configuration.logSink = .events { event in
            if event.level >= .warning { alerts.append("\(event.message) \(event.metadata)") }
        }
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 500))
        let network = URLSessionNetwork(configuration: configuration, session: session)

        await #expect(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(url: URL(string: "https://api.example.com/v1/users")!))
        }

        // The 500 answer (warning) and the failed send (error); the request (debug) is left out.
        #expect(alerts.all.count == 2)
        #expect(alerts.all.allSatisfy { $0.contains("http.response.status_code") })
    }

    #if Logging
        @Test("the Logging trait's sink writes to a swift-log Logger")
        func swiftLog() {
            var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!, logging: true)
            configuration.logSink = .logger(Logger(label: "api"))
            #expect(configuration.logging)
        }
    #endif

    #if Tracing
        @Test("the Tracing trait traces through the process's tracer")
        func tracing() {
            var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
            configuration.tracer = InstrumentationSystem.tracer
            #expect(configuration.tracer != nil)
        }
    #endif

    #if Metrics
        @Test("the Metrics trait records through the process's metrics factory")
        func metrics() {
            var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
            configuration.metricsFactory = MetricsSystem.factory
            #expect(configuration.metricsFactory != nil)
        }
    #endif
}
