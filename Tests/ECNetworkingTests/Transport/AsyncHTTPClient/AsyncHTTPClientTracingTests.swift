#if AsyncHTTPClient && Tracing
    import AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing
    import Tracing

    @testable import ECNetworking

    /// The tracer bootstrapped as the process's own (`InstrumentationSystem.tracer`), as an app
    /// with OpenTelemetry set up has one. It can be bootstrapped only once per process, so every
    /// test shares it and looks only at spans that name its own server's port.
    private let processTracer: RecordingTracer = {
        let tracer = RecordingTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    @Suite("AsyncHTTPClientTransport and the process's tracer")
    struct AsyncHTTPClientTracingTests {
        @Test(
            "with a bootstrapped tracer, the transport's own client records no span and each request carries one trace context, the library's",
            arguments: SendWay.allCases)
        func noSpanOfItsOwn(way: SendWay) async throws {
            let tracer = processTracer
            let server = try MatrixServer()
            defer { server.stop() }
            let folder = try ScratchFolder()
            defer { folder.remove() }

            let libraryTracer = RecordingTracer()
            var configuration = NetworkConfiguration(baseURL: server.server.baseURL)
            configuration.tracer = libraryTracer
            let transport = AsyncHTTPClientTransport()
            let network = URLSessionNetwork(configuration: configuration, transport: transport)

            try await tracer.withSpan("caller") { _ in
                _ = try await way.run(server.request(.ok), through: network, folder: folder.url)
            }
            try await transport.shutdown()

            let port = String(server.server.port)
            let transportSpans = tracer.spans.all.filter { span in
                attributeText(of: span).contains(port) || !MatrixSecrets.shown(in: attributeText(of: span)).isEmpty
            }
            #expect(
                transportSpans.isEmpty, "async-http-client traced the request itself: \(transportSpans.count) span(s)")
            for span in libraryTracer.spans.all {
                #expect(MatrixSecrets.shown(in: attributeText(of: span)).isEmpty)
            }

            let requests = server.server.requests
            #expect(!requests.isEmpty)
            let attemptSpanIDs = Set(libraryTracer.spans.all.map(\.identity.spanID))
            for request in requests {
                let traceparents = request.header("traceparent")?.split(separator: ",") ?? []
                #expect(traceparents.count == 1, "\(way): \(traceparents.count) trace context headers")
                if let traceparent = traceparents.first {
                    let spanID = traceparent.trimmingCharacters(in: .whitespaces).split(separator: "-")[2]
                    #expect(
                        attemptSpanIDs.contains(String(spanID)), "the trace context is not one of the library's spans")
                }
            }
        }
    }

    /// Every attribute of `span`, as text to search.
    private func attributeText(of span: RecordedSpan) -> String {
        var text = ""
        span.attributes.forEach { name, value in text += "\(name)=\(value)\n" }
        return text
    }

#endif
