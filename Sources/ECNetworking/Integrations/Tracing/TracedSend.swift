#if Tracing
    import Tracing

    /// The spans of one send: the send's own, open from start to end, and one child per attempt,
    /// each ended exactly once whichever way the send ends.
    final class TracedSend: SendObservation {
        private let tracer: any Tracer
        private let redaction: Redaction
        private let sendSpan: any Span
        /// The attempt span still open, and whether the send span has ended; the send's task is the
        /// only caller, but a lock keeps an observation safe to share.
        private let state = LockedState<State>(State())

        private struct State: Sendable {
            var attemptSpan: (any Span)?
            var hasEnded = false
        }

        init(tracer: any Tracer, request: NetworkRequest, redaction: Redaction) {
            self.tracer = tracer
            self.redaction = redaction
            let method = request.method.telemetryName
            sendSpan = tracer.startSpan(
                method == "_OTHER" ? "HTTP" : method, context: ServiceContext.current ?? .topLevel, ofKind: .client)
            describe(request, on: sendSpan)
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
            let method = request.method.telemetryName
            let span = tracer.startSpan(
                method == "_OTHER" ? "HTTP" : method, context: sendSpan.context, ofKind: .client)
            describe(request, on: span)
            let number = request.customProperties[SendAttempt.self]?.number ?? 1
            if number > 1 {
                span.attributes["http.request.resend_count"] = number - 1
            }
            tracer.inject(span.context, into: &request.headers, using: HTTPHeadersInjector())
            let previous = state.withLock { state in
                defer { state.attemptSpan = span }
                return state.attemptSpan
            }
            // Not expected: the runner ends every attempt before the next begins, and only the
            // last attempt's body can still be arriving.
            previous?.end()
        }

        func attemptEnded(response: NetworkResponse?, error: (any Error)?) {
            // A head whose body is still arriving (a stream, a download) is not the end of the
            // request: its span stays open, with the status, until the send ends with the body.
            if let response, error == nil, response.unreadBody != nil {
                let span = state.withLock { $0.attemptSpan }
                span?.attributes["http.response.status_code"] = response.statusCode
                return
            }
            guard let span = state.withLock({ $0.attemptSpan.take() }) else { return }
            finish(span, statusCode: response?.statusCode, error: error)
        }

        func sendEnded(_ metrics: RequestMetrics) {
            let (attemptSpan, hasEnded) = state.withLock { state in
                defer { state.hasEnded = true }
                return (state.attemptSpan.take(), state.hasEnded)
            }
            if let attemptSpan { finish(attemptSpan, statusCode: nil, error: metrics.error) }
            guard !hasEnded else { return }
            if metrics.attempts > 1 {
                sendSpan.attributes["http.request.resend_count"] = metrics.attempts - 1
            }
            finish(sendSpan, statusCode: metrics.statusCode, error: metrics.error)
        }

        /// The attributes known before the wire.
        private func describe(_ request: NetworkRequest, on span: any Span) {
            span.attributes["http.request.method"] = request.method.telemetryName
            if request.method.telemetryName == "_OTHER" {
                span.attributes["http.request.method_original"] = request.method.rawValue
            }
            span.attributes["url.full"] = redaction.url(of: request)
            if let host = request.url.host {
                span.attributes["server.address"] = host
            }
            if let port = request.url.port {
                span.attributes["server.port"] = port
            }
        }

        /// Records the outcome on `span` and ends it.
        private func finish(_ span: any Span, statusCode: Int?, error: (any Error)?) {
            if let statusCode {
                span.attributes["http.response.status_code"] = statusCode
            }
            if let error {
                span.attributes["error.type"] = Self.errorType(of: error)
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }

        /// OpenTelemetry's `error.type`: the status code for an unacceptable status, otherwise a
        /// short name of the kind of failure (never its description, which may hold a URL).
        private static func errorType(of error: any Error) -> String {
            if error is CancellationError { return "cancelled" }
            guard let error = error as? NetworkError else { return String(reflecting: type(of: error)) }
            switch error {
            case .unacceptableStatusCode(let response): return String(response.statusCode)
            case .cancelled: return "cancelled"
            case .invalidated: return "invalidated"
            case .invalidResponse: return "invalidResponse"
            default:
                // The case's name; its payload (a reason, a response) stays out.
                return Mirror(reflecting: error).children.first?.label ?? "NetworkError"
            }
        }
    }

    extension Optional {
        /// The value, leaving `nil` behind.
        fileprivate mutating func take() -> Wrapped? {
            defer { self = nil }
            return self
        }
    }
#endif
