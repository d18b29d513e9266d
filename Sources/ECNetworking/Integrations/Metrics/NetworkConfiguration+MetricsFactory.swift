#if Metrics
    import Metrics

    extension NetworkConfiguration {
        /// Where the network's swift-metrics go; `nil`, the default, records none. Needs the
        /// `Metrics` trait. Pass `MetricsSystem.factory` for the backend the process bootstrapped,
        /// or a factory of your own (a test one, say).
        ///
        /// ```swift
        /// configuration.metricsFactory = MetricsSystem.factory
        /// ```
        ///
        /// `http.client.request.duration` follows OpenTelemetry's HTTP client conventions: one
        /// value per physical request (each attempt, and each redirect hop the library follows),
        /// with `http.request.method` (a method OpenTelemetry does not know reads `_OTHER`),
        /// `server.address`, `server.port` (443 or 80 when the URL names none), `url.scheme`,
        /// `http.response.status_code` when a response arrived, and `error.type` when the request
        /// failed (the status code from 400 on, or a short name of the failure, such as
        /// `timedOut` or `cancelled`). A streamed body's request ends when its body does.
        ///
        /// The library's own metrics have the dimension `http.request.method` and no other that
        /// depends on the request: never its URL, whose path may hold identifiers, so the number
        /// of series stays bounded.
        /// - `ecnetworking.client.send.duration` (timer): each send from start to end, queueing,
        ///   actions and retries included, with `http.response.status_class` (`2xx`…, or `none`
        ///   without a response) and `outcome` (`success`, `failure` or `cancelled`).
        /// - `ecnetworking.client.active_sends` (meter): sends in progress, queued ones included.
        /// - `ecnetworking.client.retries` (counter): retries, with `retry.requester`
        ///   (`retry_policy` or `action`).
        /// - `ecnetworking.client.coalesced_sends` (counter): sends that joined an identical
        ///   request already on the wire instead of sending their own.
        /// - `ecnetworking.client.stored_answers` (counter): answers a response store gave without
        ///   a network call.
        /// - `ecnetworking.client.refreshes` (counter): credential refreshes, counted once each by
        ///   the send that started it, however many sends wait for it.
        public var metricsFactory: (any MetricsFactory)? {
            get { observer(of: MetricsObserver.self)?.factory }
            set { setObserver(newValue.map(MetricsObserver.init(factory:))) }
        }
    }
#endif
