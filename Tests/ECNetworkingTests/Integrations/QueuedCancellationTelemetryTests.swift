#if Tracing || Metrics
    import ECNetworkingTesting
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    #if Tracing
        import Tracing
    #endif
    #if Metrics
        import MetricsTestKit
    #endif

    /// Integrations.md: an attempt cancelled while it waited for a slot under
    /// `maximumConcurrentRequests` gets a CLIENT span, with `error.type` `cancelled`, though it
    /// never reached the wire, and so does its `http.client.request.duration` timer. Without them
    /// a dashboard would count the send but lose the attempt that waited.
    @Suite("An attempt cancelled while queued behind maximumConcurrentRequests is still traced and timed")
    struct QueuedCancellationTelemetryTests {
        private static let holdingURL = testBaseURL.appendingPathComponent("holding")
        private static let queuedURL = testBaseURL.appendingPathComponent("queued")

        /// Over `network`, which allows one request at a time, sends one request that holds the
        /// slot, then one that waits for it, and cancels the waiting one; checks it ended as
        /// cancelled without reaching the session, and returns the task still holding the slot.
        private static func cancelQueuedSend(
            on network: URLSessionNetwork, session: MockSession
        ) async throws -> Task<NetworkResponse, any Error> {
            let holding = Task { try await network.send(NetworkRequest(url: holdingURL)) }
            try await waitUntil { session.recordedRequests.count == 1 }
            let queued = Task { try await network.send(NetworkRequest(url: queuedURL)) }
            try await waitUntil { network.admission?.waitingCount == 1 }
            queued.cancel()
            await expectCancellation(of: queued)
            #expect(session.recordedRequests.count == 1, "the queued send never reached the wire")
            return holding
        }

        /// A session that holds every answer, and a network over it allowing one request at a time.
        private static func makeOneAtATimeNetwork(
            configure: (inout NetworkConfiguration) -> Void
        ) -> (URLSessionNetwork, MockSession) {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200, delay: longDelay))
            let network = makeNetwork(session: session) { configuration in
                configuration.maximumConcurrentRequests = 1
                configure(&configuration)
            }
            return (network, session)
        }

        #if Tracing
            @Test("the queued attempt gets a CLIENT span under its send's span, cancelled, ended once")
            func clientSpan() async throws {
                let tracer = RecordingTracer()
                let (network, session) = Self.makeOneAtATimeNetwork { $0.tracer = tracer }
                defer { network.invalidate() }

                let holding = try await Self.cancelQueuedSend(on: network, session: session)
                defer { holding.cancel() }

                let spans = tracer.spans.all
                let sends = spans.filter { $0.kind == .internal }
                try #require(sends.count == 2, "\(spans.map(\.operationName))")
                let queuedSend = sends[1]
                let queuedAttempts = spans.filter { $0.parentSpanID == queuedSend.identity.spanID }
                try #require(queuedAttempts.count == 1, "the queued send has one attempt span")
                let attempt = queuedAttempts[0]
                #expect(attempt.kind == .client)
                #expect(attempt.operationName == "GET")
                #expect(attempt.string("url.full") == Self.queuedURL.absoluteString)
                #expect(attempt.string("error.type") == "cancelled")
                #expect(attempt.endCount == 1)
                #expect(queuedSend.endCount == 1)
            }
        #endif

        #if Metrics
            @Test("the queued attempt records an http.client.request.duration timer with error.type cancelled")
            func durationTimer() async throws {
                let metrics = TestMetrics()
                let (network, session) = Self.makeOneAtATimeNetwork { $0.metricsFactory = metrics }
                defer { network.invalidate() }

                let holding = try await Self.cancelQueuedSend(on: network, session: session)
                defer { holding.cancel() }

                // The send holding the slot has recorded nothing yet: this timer is the queued one's.
                let timers = metrics.timers.filter { $0.label == "http.client.request.duration" }
                try #require(timers.count == 1, "\(timers.map(\.dimensions))")
                #expect(timers[0].dimensions.contains { $0 == ("error.type", "cancelled") })
                #expect(timers[0].dimensions.contains { $0 == ("http.request.method", "GET") })
                #expect(timers[0].values.count == 1)
            }
        #endif
    }
#endif
