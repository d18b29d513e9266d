#if Metrics
    import Metrics

    /// Counts every send of a network whose configuration has a metrics factory; see
    /// ``NetworkConfiguration/metricsFactory``.
    struct MetricsObserver: SendObserver {
        let factory: any MetricsFactory

        func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation {
            MeasuredSend(factory: factory, method: request.method.telemetryName)
        }

        func storedAnswer(_ request: NetworkRequest) {
            Counter(
                label: "http.client.stored_answers",
                dimensions: [("http.request.method", request.method.telemetryName)],
                factory: factory
            ).increment()
        }
    }

    /// One send's metrics: it counts as active from start to end, and its duration, retries,
    /// joined requests and the credential refreshes it started are recorded as they happen.
    final class MeasuredSend: SendObservation {
        private let factory: any MetricsFactory
        private let method: String
        private let activeRequests: Meter
        init(factory: any MetricsFactory, method: String) {
            self.factory = factory
            self.method = method
            activeRequests = Meter(
                label: "http.client.active_requests", dimensions: [("http.request.method", method)], factory: factory)
            activeRequests.increment()
        }

        func refreshStarted() {
            counter("http.client.refreshes").increment()
        }

        func attemptOnWire(_ request: NetworkRequest) {
            if request.customProperties[JoinedIdenticalRequest.self] {
                counter("http.client.coalesced_sends").increment()
            }
        }

        func sendEnded(_ metrics: RequestMetrics) {
            activeRequests.decrement()
            for requester in metrics.retriedBy {
                let name =
                    switch requester {
                    case .retryPolicy: "retry_policy"
                    case .completedAction: "action"
                    }
                counter("http.client.retries", ("retry.requester", name)).increment()
            }
            let statusClass = metrics.statusCode.map { "\($0 / 100)xx" } ?? "none"
            let outcome: String
            if let error = metrics.error {
                let isCancellation = (error as? NetworkError)?.isCancellation == true || error is CancellationError
                outcome = isCancellation ? "cancelled" : "failure"
            } else {
                outcome = "success"
            }
            let (seconds, attoseconds) = metrics.timings.total.components
            CoreMetrics.Timer(
                label: "http.client.request.duration",
                dimensions: [
                    ("http.request.method", method), ("http.response.status_class", statusClass), ("outcome", outcome),
                ],
                factory: factory
            ).recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }

        private func counter(_ label: String, _ dimensions: (String, String)...) -> Counter {
            Counter(label: label, dimensions: [("http.request.method", method)] + dimensions, factory: factory)
        }
    }
#endif
