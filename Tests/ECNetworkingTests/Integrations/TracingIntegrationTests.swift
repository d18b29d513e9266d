#if Tracing
    import ECNetworkingTesting
    import Foundation
    import TestSupport
    import Testing
    import Tracing

    @testable import ECNetworking

    /// A network over a mock session answering with `responses` in order, traced by `tracer`.
    private func makeTracedNetwork(
        answering responses: [MockResponse],
        tracer: RecordingTracer,
        configure: (inout NetworkConfiguration) -> Void = { _ in }
    ) -> (URLSessionNetwork, MockSession) {
        let session = MockSession()
        session.stub(with: responses)
        let network = makeNetwork(session: session) { configuration in
            configuration.tracer = tracer
            configure(&configuration)
        }
        return (network, session)
    }

    @Suite("Tracing trait: a span per send and per attempt")
    struct TracingIntegrationTests {
        private let usersURL = testBaseURL.appendingPathComponent("users")

        @Test("a retried send has one internal span with a client child per attempt in one trace, each ended once")
        func parentageAcrossRetries() async throws {
            let tracer = RecordingTracer()
            let (network, session) = makeTracedNetwork(
                answering: [MockResponse(statusCode: 503), MockResponse(statusCode: 200)], tracer: tracer
            ) { $0.retryPolicy = RetryPolicy(baseDelay: .zero, jitter: 0) }

            _ = try await network.send(NetworkRequest(url: usersURL))

            let spans = tracer.spans.all
            try #require(spans.count == 3)
            let (send, first, second) = (spans[0], spans[1], spans[2])
            #expect(send.parentSpanID == nil)
            #expect(first.parentSpanID == send.identity.spanID)
            #expect(second.parentSpanID == send.identity.spanID)
            #expect(Set(spans.map(\.identity.traceID)).count == 1)
            #expect(spans.allSatisfy { $0.endCount == 1 })
            #expect(send.kind == .internal && send.operationName == "ECNetworking send")
            #expect([first, second].allSatisfy { $0.kind == .client && $0.operationName == "GET" })
            #expect(first.int("http.response.status_code") == 503)
            #expect(first.string("error.type") == "503")
            #expect(first.int("http.request.resend_count") == nil)
            #expect(first.status?.code == .error)
            #expect(second.int("http.response.status_code") == 200)
            #expect(second.int("http.request.resend_count") == 1)
            #expect(second.string("error.type") == nil)
            #expect(second.status == nil)
            for request in [first, second] {
                #expect(request.string("http.request.method") == "GET")
                #expect(request.string("url.full") == "https://api.example.com/v1/users")
                #expect(request.string("server.address") == "api.example.com")
                #expect(request.int("server.port") == 443)
            }
            // The send's span describes the library's work, not a request: no HTTP attributes.
            #expect(send.attributes.isEmpty, "\(send.attributes)")
            #expect(send.status == nil)

            // Each attempt went out with its own span's context.
            let sent = session.recordedRequests.map { $0.value(forHTTPHeaderField: "traceparent") }
            #expect(sent == [first.identity.traceparent, second.identity.traceparent])
        }

        @Test("a login sent inside a refresh is traced as a child of the send that needed the credential")
        func loginIsAChildOfTheSendThatNeededIt() async throws {
            let tracer = RecordingTracer()
            let loginSession = MockSession()
            loginSession.stub(with: [MockResponse(statusCode: 200)])
            let login = makeNetwork(session: loginSession) { $0.tracer = tracer }
            let loginURL = testBaseURL.appendingPathComponent("login")
            let authenticator = CountingAuthenticator { _, _ in
                _ = try await login.send(NetworkRequest(url: loginURL))
                return TestCredential(token: "new")
            }
            let (network, _) = makeTracedNetwork(answering: [MockResponse(statusCode: 200)], tracer: tracer)
            network.add(action: AuthenticatingAction(authenticator: authenticator, credential: nil))

            _ = try await network.send(NetworkRequest(url: usersURL))

            let spans = tracer.spans.all
            try #require(spans.count == 4)
            let send = try #require(spans.first { $0.parentSpanID == nil })
            // The login's own send span hangs under the users send; its request under the login.
            let loginRequest = try #require(spans.first { $0.string("url.full")?.hasSuffix("/login") == true })
            let loginSend = try #require(spans.first { $0.identity.spanID == loginRequest.parentSpanID })
            #expect(loginSend.kind == .internal)
            #expect(loginSend.parentSpanID == send.identity.spanID)
            #expect(loginSend.identity.traceID == send.identity.traceID)
            #expect(spans.allSatisfy { $0.endCount == 1 })
        }

        @Test("a method OpenTelemetry does not know names its client span HTTP, as _OTHER with the method as sent")
        func unknownMethod() async throws {
            let tracer = RecordingTracer()
            let (network, _) = makeTracedNetwork(answering: [MockResponse(statusCode: 200)], tracer: tracer)

            _ = try await network.send(NetworkRequest(method: "PROPFIND", url: usersURL))

            let spans = tracer.spans.all
            try #require(spans.count == 2)
            #expect(spans[1].kind == .client && spans[1].operationName == "HTTP")
            #expect(spans[1].string("http.request.method") == "_OTHER")
            #expect(spans[1].string("http.request.method_original") == "PROPFIND")
        }

        @Test("the send's span is a child of the caller's span")
        func childOfTheCallersSpan() async throws {
            let tracer = RecordingTracer()
            let (network, _) = makeTracedNetwork(answering: [MockResponse(statusCode: 200)], tracer: tracer)
            let caller = tracer.startSpan("caller", context: .topLevel)

            try await ServiceContext.withValue(caller.context) {
                _ = try await network.send(NetworkRequest(url: usersURL))
            }

            let spans = tracer.spans.all
            try #require(spans.count == 3)
            #expect(spans[1].parentSpanID == caller.identity.spanID)
            #expect(spans[1].identity.traceID == caller.identity.traceID)
        }

        @Test("a failed send's spans have an error status and error.type, and the URL is redacted")
        func errorStatusAndRedaction() async throws {
            let tracer = RecordingTracer()
            let (network, _) = makeTracedNetwork(
                answering: [MockResponse(statusCode: 401, data: Data(Planted.responseBody.utf8))], tracer: tracer)

            await #expect(throws: NetworkError.self) { _ = try await network.send(Planted.request) }

            let spans = tracer.spans.all
            try #require(spans.count == 2)
            for span in spans {
                #expect(span.status?.code == .error)
                #expect(span.string("error.type") == "401")
                #expect(span.endCount == 1)
            }
            #expect(spans[1].int("http.response.status_code") == 401)
            #expect(spans[1].string("http.request.method") == "POST")
            var texts: [String: String] = [:]
            for (index, span) in spans.enumerated() {
                texts["span \(index) url.full"] = span.string("url.full")
                texts["span \(index) errors"] = span.errors.joined(separator: "\n")
                texts["span \(index) attributes"] = "\(span.attributes)"
            }
            expectNoSecrets(in: texts, Planted.coveredByDefaults)
        }

        @Test("a send cancelled on the wire ends its attempt and send spans exactly once")
        func cancelledOnTheWire() async throws {
            let tracer = RecordingTracer()
            let (network, session) = makeTracedNetwork(
                answering: [MockResponse(statusCode: 200, delay: longDelay)], tracer: tracer)

            let task = Task { try await network.send(NetworkRequest(url: usersURL)) }
            try await waitUntil { session.recordedRequests.count == 1 }
            task.cancel()
            await expectCancellation(of: task)

            let spans = tracer.spans.all
            try #require(spans.count == 2)
            #expect(spans.map(\.endCount) == [1, 1])
            #expect(spans.allSatisfy { $0.string("error.type") == "cancelled" })
        }

        @Test("a send cancelled in a retry's back-off ends the attempt already over once, and the send once")
        func cancelledInBackOff() async throws {
            let tracer = RecordingTracer()
            let (network, session) = makeTracedNetwork(
                answering: [MockResponse(statusCode: 503), MockResponse(statusCode: 200)], tracer: tracer
            ) { $0.retryPolicy = RetryPolicy(baseDelay: longDelay, maximumDelay: longDelay, jitter: 0) }

            let task = Task { try await network.send(NetworkRequest(url: usersURL)) }
            try await waitUntil { session.recordedRequests.count == 1 && tracer.spans.all.last?.endCount == 1 }
            network.cancelAll()
            await expectCancellation(of: task)

            let spans = tracer.spans.all
            try #require(spans.count == 2)
            #expect(spans.map(\.endCount) == [1, 1])
            #expect(spans[0].string("error.type") == "cancelled")
            #expect(spans[1].string("error.type") == "503")
        }

        /// The call stays on the wire until all five sends are in it, so they share it however
        /// slowly their tasks start: with an answer due after a delay, on two busy cores a send could
        /// start after the call had ended, and make a call of its own.
        @Test(
            "with coalescing on, identical GETs still share one call: the trace context is not part of identity",
            .timeLimit(.minutes(1)))
        func coalescingIgnoresTraceContext() async throws {
            let tracer = RecordingTracer()
            let session = HeldSession()
            let network = makeCoalescingNetwork(session: session) { $0.tracer = tracer }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 { group.addTask { _ = try await network.send(NetworkRequest(url: usersURL)) } }
                try await waitUntil { network.coalescing.waiterCount == 5 && session.heldCount == 1 }
                session.answer()
                try await group.waitForAll()
            }

            #expect(session.startedPaths.count == 1)
            // Every caller still has its own send and attempt spans.
            #expect(tracer.spans.all.count == 10)
            #expect(tracer.spans.all.allSatisfy { $0.endCount == 1 })
        }

        @Test("without a tracer nothing is traced and no header is added")
        func offByDefault() async throws {
            #expect(NetworkConfiguration(baseURL: testBaseURL).tracer == nil)
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200))
            _ = try await makeNetwork(session: session).send(NetworkRequest(url: usersURL))
            #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "traceparent") == nil)
        }
    }
#endif
