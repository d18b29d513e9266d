#if Tracing
    import Foundation
    import Tracing

    /// The spans of one send, by OpenTelemetry's HTTP client conventions: an INTERNAL span for the
    /// send as a whole (queueing, actions, retries), open from start to end and without HTTP
    /// attributes, and a CLIENT child for every physical request: each attempt, and each redirect
    /// hop the library follows for it. Every span ends exactly once whichever way the send ends.
    final class TracedSend: SendObservation {
        /// The send span's name: it stands for the library's work around the requests, which the
        /// CLIENT spans under it name by their methods.
        static let sendSpanName = "ECNetworking send"

        private let tracer: any Tracer
        private let redaction: Redaction
        private let sendSpan: any Span
        /// The CLIENT span still open, how many physical requests the send has made, and whether
        /// the send span has ended. Under a lock: a redirect is read on the transport's thread.
        private let state = LockedState<State>(State())

        private struct State: Sendable {
            var requestSpan: (any Span)?
            /// The status of the open request whose body is still arriving.
            var requestStatus: Int?
            /// The attempt in progress, whose redirect hops get spans; a hop of another comes late.
            var attempt = 0
            var physicalRequests = 0
            var hasEnded = false

            /// Whether a request of `attempt` may start a span: any attempt while the send runs,
            /// but a redirect hop only while its attempt's request is the one open.
            func admits(attempt: Int, isRedirect: Bool) -> Bool {
                !hasEnded && (!isRedirect || (self.attempt == attempt && requestSpan != nil))
            }
        }

        init(tracer: any Tracer, request: NetworkRequest, redaction: Redaction) {
            self.tracer = tracer
            self.redaction = redaction
            sendSpan = tracer.startSpan(
                Self.sendSpanName, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        }

        /// Runs the send with its span as the current context, so that whatever its actions send
        /// (a login inside a credential refresh, which inherits it) is traced as part of it.
        // On the sending task's executor, as `SendObservation` requires: `body` holds the send's
        // `inout` context, so the span costs the send no executor switch.
        nonisolated(nonsending) func withinSend<Value>(
            _ body: nonisolated(nonsending) () async throws -> Value
        ) async throws -> Value {
            try await ServiceContext.withValue(sendSpan.context) { try await body() }
        }

        func attemptWillSend(_ request: inout NetworkRequest) {
            let attempt = request.customProperties[SendAttempt.self]?.number ?? 0
            guard
                let headers = startRequestSpan(
                    attempt: attempt, method: request.method, url: redaction.url(of: request),
                    server: TelemetryServer(request.url), headers: request.headers, previousStatus: nil)
            else { return }
            request.headers = headers
        }

        func attemptOnWire(_ request: NetworkRequest) {
            // The request joined an identical one on the wire: its span stands for no request of
            // its own, and its trace context went nowhere (the shared call carries the first's).
            if request.customProperties[JoinedIdenticalRequest.self] {
                state.withLock { $0.requestSpan }?.attributes["ecnetworking.joined_identical_request"] = true
            }
        }

        func redirectFollowed(attempt: Int, statusCode: Int, to next: inout TransportRequest) {
            guard
                let headers = startRequestSpan(
                    attempt: attempt, method: next.method, url: redaction.url(next.url),
                    server: TelemetryServer(next.url), headers: next.headers, previousStatus: statusCode)
            else { return }
            next.headers = headers
        }

        func attemptEnded(response: NetworkResponse?, error: (any Error)?) {
            // A head whose body is still arriving (a stream, a download) is not the end of the
            // request: its span stays open, with the status, until the send ends with the body.
            if let response, error == nil, response.unreadBody != nil {
                state.withLock { $0.requestStatus = response.statusCode }
                return
            }
            guard let span = state.withLock({ $0.requestSpan.take() }) else { return }
            finish(span, statusCode: response?.statusCode, error: error)
        }

        func sendEnded(_ metrics: RequestMetrics) {
            let (requestSpan, status, hasEnded) = state.withLock { state in
                defer { state.hasEnded = true }
                return (state.requestSpan.take(), state.requestStatus.take(), state.hasEnded)
            }
            if let requestSpan { finish(requestSpan, statusCode: status, error: metrics.error) }
            guard !hasEnded else { return }
            // No HTTP attributes: those belong to the physical requests. The error stays, since the
            // send failing is what a reader of the trace looks for first.
            if let error = metrics.error {
                sendSpan.attributes["error.type"] = TelemetryErrorType.of(error)
                sendSpan.recordError(error)
                sendSpan.setStatus(SpanStatus(code: .error))
            }
            sendSpan.end()
        }

        /// Ends the physical request in progress, if any, with `previousStatus` (a redirect it
        /// answered), starts the next one's CLIENT span, and returns `headers` with its trace
        /// context. A redirect hop (`previousStatus` set) of an attempt that is no longer in
        /// progress, or of a send that ended, comes late: it gets no span, and `nil` is returned.
        private func startRequestSpan(
            attempt: Int, method: HTTPMethod, url: String, server: TelemetryServer, headers: HTTPHeaders,
            previousStatus: Int?
        ) -> HTTPHeaders? {
            let isRedirect = previousStatus != nil
            guard state.withLock({ $0.admits(attempt: attempt, isRedirect: isRedirect) }) else { return nil }
            let name = method.telemetryName
            let span = tracer.startSpan(name == "_OTHER" ? "HTTP" : name, context: sendSpan.context, ofKind: .client)
            span.attributes["http.request.method"] = name
            if name == "_OTHER" {
                span.attributes["http.request.method_original"] = method.rawValue
            }
            span.attributes["url.full"] = url
            if let address = server.address {
                span.attributes["server.address"] = address
            }
            span.attributes["server.port"] = server.port
            // Checked again as the span is stored: the attempt may have ended since.
            let stored = state.withLock { state -> (previous: (any Span)?, resends: Int)? in
                guard state.admits(attempt: attempt, isRedirect: isRedirect) else { return nil }
                defer {
                    state.requestSpan = span
                    state.attempt = attempt
                    state.physicalRequests += 1
                }
                return (state.requestSpan, state.physicalRequests)
            }
            guard let (previous, resends) = stored else {
                // Lost the race to the attempt's end: the span ends at once, never left open.
                span.end()
                return nil
            }
            // Every request after the first is a resend, whatever caused it: a retry or a redirect.
            if resends > 0 {
                span.attributes["http.request.resend_count"] = resends
            }
            // Before an attempt, none is open: the runner ends every attempt before the next begins.
            previous.map { finish($0, statusCode: previousStatus, error: nil) }
            var headers = headers
            tracer.inject(span.context, into: &headers, using: HTTPHeadersInjector())
            return headers
        }

        /// Records the outcome on `span` and ends it.
        private func finish(_ span: any Span, statusCode: Int?, error: (any Error)?) {
            if let statusCode {
                span.attributes["http.response.status_code"] = statusCode
            }
            if let errorType = TelemetryErrorType.of(statusCode: statusCode, error: error) {
                span.attributes["error.type"] = errorType
                if let error { span.recordError(error) }
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }
    }
#endif
