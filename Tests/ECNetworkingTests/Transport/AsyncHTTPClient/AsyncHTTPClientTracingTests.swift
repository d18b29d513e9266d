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
        /// A query parameter the redaction rules name, and a value no span may show.
        static let secret = "planted-trace-secret-81c4"

        @Test(
            "with a bootstrapped tracer, the transport's own client records no span and each request carries one trace context, the library's",
            arguments: SendWay.allCases)
        func noSpanOfItsOwn(way: SendWay) async throws {
            let tracer = processTracer
            let server = try LoopbackHTTPServer { request in
                if request.path.hasPrefix("/events") {
                    return .response(
                        status: 200, headers: ["Content-Type": "text/event-stream"], body: Data("data: one\n\n".utf8))
                }
                return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
            }
            defer { server.stop() }

            let libraryTracer = RecordingTracer()
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.tracer = libraryTracer
            let transport = AsyncHTTPClientTransport()
            let network = URLSessionNetwork(configuration: configuration, transport: transport)

            try await tracer.withSpan("caller") { _ in
                try await way.send(through: network, to: server, secret: Self.secret)
            }
            try await transport.shutdown()

            let port = String(server.port)
            let transportSpans = tracer.spans.all.filter { span in
                attributeText(of: span).contains(port) || attributeText(of: span).contains(Self.secret)
            }
            #expect(
                transportSpans.isEmpty, "async-http-client traced the request itself: \(transportSpans.count) span(s)")
            for span in libraryTracer.spans.all {
                #expect(!attributeText(of: span).contains(Self.secret))
            }

            let requests = server.requests
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

    /// Every way the package offers to send a request, each over the network under test.
    enum SendWay: String, CaseIterable, CustomStringConvertible {
        case send, stream, download, upload, serverSentEvents

        var description: String { rawValue }

        func send(through network: URLSessionNetwork, to server: LoopbackHTTPServer, secret: String) async throws {
            var request = NetworkRequest(method: .get, url: server.baseURL.appendingPathComponent("items"))
            request.queryItems = [URLQueryItem(name: "access_token", value: secret)]
            switch self {
            case .send:
                _ = try await network.send(request)
            case .stream:
                _ = try await network.stream(request).collect()
            case .download:
                let destination = FileManager.default.temporaryDirectory
                    .appendingPathComponent("trace-download-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: destination) }
                _ = try await network.download(request, to: destination)
            case .upload:
                request.method = .post
                let chunks = AsyncStream<Data> { continuation in
                    continuation.yield(Data("part one, ".utf8))
                    continuation.yield(Data("part two".utf8))
                    continuation.finish()
                }
                request.body = .stream(ByteStream(chunks), length: nil, contentType: "text/plain")
                _ = try await network.send(request)
            case .serverSentEvents:
                request.url = server.baseURL.appendingPathComponent("events")
                for try await _ in network.serverSentEvents(RawEventsRequest(request: request)) {}
            }
        }
    }

    /// A raw request as a typed one, for the event-stream subscription.
    private struct RawEventsRequest: Request {
        typealias Response = NetworkResponse
        let request: NetworkRequest

        func buildRequest(with baseURL: URL) -> NetworkRequest { request }
    }
#endif
