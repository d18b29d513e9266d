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
        /// Every metric has the dimension `http.request.method` (a method OpenTelemetry does not
        /// know reads `_OTHER`) and no other that depends on the request: never its URL, whose
        /// path may hold identifiers, so the number of series stays bounded.
        /// - `http.client.request.duration` (timer): each send from start to end, retries
        ///   included, with `http.response.status_class` (`2xx`…, or `none` without a response)
        ///   and `outcome` (`success`, `failure` or `cancelled`).
        /// - `http.client.active_requests` (meter): sends in progress, queued ones included.
        /// - `http.client.retries` (counter): retries, with `retry.requester` (`retry_policy` or
        ///   `action`).
        /// - `http.client.coalesced_sends` (counter): sends that joined an identical request
        ///   already on the wire instead of sending their own.
        /// - `http.client.stored_answers` (counter): answers a response store gave without a
        ///   network call.
        /// - `http.client.refreshes` (counter): credential refreshes, counted once each by the send
        ///   that started it, however many sends wait for it.
        public var metricsFactory: (any MetricsFactory)? {
            get { observer(of: MetricsObserver.self)?.factory }
            set { setObserver(newValue.map(MetricsObserver.init(factory:))) }
        }
    }
#endif
