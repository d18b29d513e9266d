#if Metrics
    import Metrics

    /// Counts every send of a network whose configuration has a metrics factory; see
    /// ``NetworkConfiguration/metricsFactory``.
    struct MetricsObserver: SendObserver {
        let factory: any MetricsFactory

        func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation {
            MeasuredSend(factory: factory, method: request.method.telemetryName)
        }

        func storedAnswer(_ request: NetworkRequest, age: Duration, reason: String) {
            Counter(
                label: MetricName.storedAnswers,
                dimensions: [("http.request.method", request.method.telemetryName)],
                factory: factory
            ).increment()
        }
    }

    /// The names of the metrics; see ``NetworkConfiguration/metricsFactory``.
    enum MetricName {
        /// OpenTelemetry's: one physical request, from its start on the wire to its end.
        static let requestDuration = "http.client.request.duration"
        /// The library's own, under its own namespace, as OpenTelemetry asks of names it does not define.
        static let sendDuration = "ecnetworking.client.send.duration"
        static let activeSends = "ecnetworking.client.active_sends"
        static let retries = "ecnetworking.client.retries"
        static let coalescedSends = "ecnetworking.client.coalesced_sends"
        static let storedAnswers = "ecnetworking.client.stored_answers"
        static let refreshes = "ecnetworking.client.refreshes"
    }

    /// One send's metrics: it counts as active from start to end; each physical request (an
    /// attempt, a redirect hop) records its duration by OpenTelemetry's conventions; the send as a
    /// whole, its retries, joined requests and the credential refreshes it started are recorded
    /// under the library's own names.
    final class MeasuredSend: SendObservation {
        private let factory: any MetricsFactory
        private let method: String
        private let activeSends: Meter
        /// The physical request in progress. Under a lock: a redirect is read on the transport's thread.
        private let request = LockedState<PhysicalRequest?>(nil)

        /// What `http.client.request.duration` needs of a request on the wire.
        private struct PhysicalRequest: Sendable {
            /// The attempt it belongs to; a redirect hop of another attempt comes late.
            let attempt: Int
            let start: SendMoment
            let method: String
            let server: TelemetryServer
            /// The status of a head whose body is still arriving.
            var statusCode: Int?
        }

        init(factory: any MetricsFactory, method: String) {
            self.factory = factory
            self.method = method
            activeSends = Meter(
                label: MetricName.activeSends, dimensions: [("http.request.method", method)], factory: factory)
            activeSends.increment()
        }

        func refreshStarted() {
            counter(MetricName.refreshes).increment()
        }

        func attemptWillSend(_ request: inout NetworkRequest) {
            let attempt = request.customProperties[SendAttempt.self]?.number ?? 0
            let physical = PhysicalRequest(
                attempt: attempt, start: SendClock.now, method: method, server: TelemetryServer(request.url))
            // None is open before an attempt: the runner ends each before the next begins.
            if let previous = self.request.withLock({ $0.replace(with: physical) }) {
                record(previous, statusCode: previous.statusCode, error: nil)
            }
        }

        func attemptOnWire(_ request: NetworkRequest) {
            if request.customProperties[JoinedIdenticalRequest.self] {
                counter(MetricName.coalescedSends).increment()
                // No request of its own went on the wire: nothing to time.
                self.request.withLock { $0 = nil }
            }
        }

        func redirectFollowed(attempt: Int, statusCode: Int, to next: inout TransportRequest) {
            let hop = PhysicalRequest(
                attempt: attempt, start: SendClock.now, method: next.method.telemetryName,
                server: TelemetryServer(next.url))
            // Only a hop of the attempt in progress: one read after its attempt ended comes late.
            let previous = request.withLock { current -> PhysicalRequest? in
                guard current?.attempt == attempt else { return nil }
                return current.replace(with: hop)
            }
            if let previous { record(previous, statusCode: statusCode, error: nil) }
        }

        func attemptEnded(response: NetworkResponse?, error: (any Error)?) {
            // A head whose body is still arriving (a stream, a download) is not the end of the
            // request: it is recorded, with the status, when the send ends with the body.
            if let response, error == nil, response.unreadBody != nil {
                request.withLock { $0?.statusCode = response.statusCode }
                return
            }
            if let ended = request.withLock({ $0.take() }) {
                record(ended, statusCode: response?.statusCode, error: error)
            }
        }

        func sendEnded(_ metrics: RequestMetrics) {
            if let ended = request.withLock({ $0.take() }) {
                record(ended, statusCode: ended.statusCode ?? metrics.statusCode, error: metrics.error)
            }
            activeSends.decrement()
            for requester in metrics.retriedBy {
                let name =
                    switch requester {
                    case .retryPolicy: "retry_policy"
                    case .completedAction: "action"
                    }
                counter(MetricName.retries, ("retry.requester", name)).increment()
            }
            let statusClass = metrics.statusCode.map { "\($0 / 100)xx" } ?? "none"
            let outcome: String
            if let error = metrics.error {
                let isCancellation = (error as? NetworkError)?.isCancellation == true || error is CancellationError
                outcome = isCancellation ? "cancelled" : "failure"
            } else {
                outcome = "success"
            }
            CoreMetrics.Timer(
                label: MetricName.sendDuration,
                dimensions: [
                    ("http.request.method", method), ("http.response.status_class", statusClass), ("outcome", outcome),
                ],
                factory: factory
            ).recordNanoseconds(Self.nanoseconds(metrics.timings.total))
        }

        /// Records one physical request's duration with OpenTelemetry's attributes.
        private func record(_ ended: PhysicalRequest, statusCode: Int?, error: (any Error)?) {
            var dimensions = [
                ("http.request.method", ended.method), ("server.port", String(ended.server.port)),
                ("url.scheme", ended.server.scheme),
            ]
            if let address = ended.server.address { dimensions.append(("server.address", address)) }
            if let statusCode { dimensions.append(("http.response.status_code", String(statusCode))) }
            if let errorType = TelemetryErrorType.of(statusCode: statusCode, error: error) {
                dimensions.append(("error.type", errorType))
            }
            CoreMetrics.Timer(label: MetricName.requestDuration, dimensions: dimensions, factory: factory)
                .recordNanoseconds(Self.nanoseconds(SendClock.now - ended.start))
        }

        private static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }

        private func counter(_ label: String, _ dimensions: (String, String)...) -> Counter {
            Counter(label: label, dimensions: [("http.request.method", method)] + dimensions, factory: factory)
        }
    }

    extension Optional {
        /// Puts `value` in place and returns what was there.
        fileprivate mutating func replace(with value: Wrapped) -> Wrapped? {
            defer { self = value }
            return self
        }
    }
#endif
