#if Tracing && Metrics
    import ECNetworking
    import ECNetworkingTesting
    import Foundation
    import MetricsTestKit
    import TestSupport
    import Testing
    import Tracing

    /// OpenTelemetry's HTTP client conventions over a real loopback server and every transport:
    /// a send that is retried once and then redirected once makes three physical requests, each
    /// with a CLIENT span and a duration of its own, under one INTERNAL span for the send.
    @Suite("Telemetry by OpenTelemetry's HTTP client conventions")
    struct TelemetryConventionsTests {
        /// `/start` answers 503 the first time and a redirect to `/end` after; `/end` answers 200.
        private static func server() throws -> LoopbackHTTPServer {
            let starts = Counter()
            return try LoopbackHTTPServer { request in
                switch request.path {
                case "/start":
                    return starts.increment() == 1
                        ? .response(status: 503, body: Data("busy".utf8))
                        : .response(status: 302, headers: ["Location": "/end"])
                case "/end": return .response(status: 200, body: Data("done".utf8))
                default: return .response(status: 404)
                }
            }
        }

        @Test(
            "one retry and one redirect: one INTERNAL send span, three CLIENT spans and three request durations",
            arguments: TransportKind.allCases)
        func retryAndRedirect(kind: TransportKind) async throws {
            let server = try Self.server()
            let tracer = RecordingTracer()
            let metrics = TestMetrics()
            let configure: (inout NetworkConfiguration) -> Void = { configuration in
                configuration.tracer = tracer
                configuration.metricsFactory = metrics
                configuration.retryPolicy = RetryPolicy(baseDelay: .zero, jitter: 0)
            }
            let response = try await kind.withNetwork(baseURL: server.baseURL, configure: configure) { network in
                try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("start")))
            }
            #expect(response.statusCode == 200)

            let spans = tracer.spans.all
            try #require(spans.count == 4, "\(spans.map(\.operationName))")
            let send = spans[0]
            let requests = Array(spans.dropFirst())
            #expect(send.kind == .internal && send.parentSpanID == nil)
            #expect(send.attributes.isEmpty, "the send span has no HTTP attributes: \(send.attributes)")
            #expect(spans.allSatisfy { $0.endCount == 1 && $0.identity.traceID == send.identity.traceID })
            #expect(requests.allSatisfy { $0.kind == .client && $0.parentSpanID == send.identity.spanID })
            #expect(requests.map { $0.int("http.response.status_code") } == [503, 302, 200])
            #expect(requests.map { $0.int("http.request.resend_count") } == [nil, 1, 2])
            #expect(requests.map { $0.string("error.type") } == ["503", nil, nil])
            #expect(requests.map { $0.status?.code } == [.error, nil, nil])
            #expect(
                requests.map { $0.string("url.full").map { URL(string: $0)?.path } } == ["/start", "/start", "/end"])
            for request in requests {
                #expect(request.operationName == "GET")
                #expect(request.string("http.request.method") == "GET")
                #expect(request.string("server.address") == "127.0.0.1")
                #expect(request.int("server.port") == server.port)
            }
            // Each physical request carried its own span's context, and only that.
            let received = server.requests.map { $0.header("traceparent") }
            #expect(received == requests.map { $0.identity.traceparent })

            let durations = metrics.timers(label: "http.client.request.duration")
            #expect(durations.flatMap(\.values).count == 3)
            let common = [
                ("http.request.method", "GET"), ("server.port", String(server.port)), ("url.scheme", "http"),
                ("server.address", "127.0.0.1"),
            ]
            _ = try metrics.expectTimer(
                "http.client.request.duration",
                common + [("http.response.status_code", "503"), ("error.type", "503")])
            _ = try metrics.expectTimer("http.client.request.duration", common + [("http.response.status_code", "302")])
            _ = try metrics.expectTimer("http.client.request.duration", common + [("http.response.status_code", "200")])
            #expect(metrics.timers(label: "ecnetworking.client.send.duration").flatMap(\.values).count == 1)
        }

        @Test(
            "a streamed send that a completed action retries records each request once, and ends each span once",
            arguments: TransportKind.allCases)
        func streamedRetry(kind: TransportKind) async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("streamed".utf8)) }
            defer { server.stop() }
            let tracer = RecordingTracer()
            let metrics = TestMetrics()
            let retried = Counter()
            let configure: (inout NetworkConfiguration) -> Void = { configuration in
                configuration.tracer = tracer
                configuration.metricsFactory = metrics
            }
            let body = try await kind.withNetwork(baseURL: server.baseURL, configure: configure) { network in
                network.add(
                    action: Completed { _, response in
                        retried.increment() == 1 ? .retry(after: .zero) : .proceed(response)
                    })
                let stream = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("s")))
                return try await stream.collect()
            }
            #expect(body == Data("streamed".utf8))
            #expect(server.requests.count == 2)
            let requests = tracer.spans.all.filter { $0.kind == .client }
            #expect(requests.count == 2)
            #expect(tracer.spans.all.allSatisfy { $0.endCount == 1 })
            #expect(requests.map { $0.int("http.response.status_code") } == [200, 200])
            let durations = metrics.timers(label: "http.client.request.duration").flatMap(\.values)
            #expect(durations.count == 2, "each request on the wire is timed once")
        }

        @Test("server.port is the scheme's default when the URL names none")
        func defaultPort() async throws {
            let tracer = RecordingTracer()
            let session = MockSession()
            session.stub(with: [MockResponse(statusCode: 200), MockResponse(statusCode: 200)])
            let network = makeNetwork(session: session) { $0.tracer = tracer }

            _ = try await network.send(NetworkRequest(url: URL(string: "https://api.example.com/a")!))
            _ = try await network.send(NetworkRequest(url: URL(string: "http://api.example.com/a")!))

            let ports = tracer.spans.all.filter { $0.kind == .client }.map { $0.int("server.port") }
            #expect(ports == [443, 80])
        }
    }
#endif
