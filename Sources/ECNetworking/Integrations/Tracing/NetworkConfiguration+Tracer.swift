#if Tracing
    import Tracing

    extension NetworkConfiguration {
        /// The tracer that records, by OpenTelemetry's HTTP client conventions, an INTERNAL span
        /// per send and under it a CLIENT span per physical request (each attempt and each redirect
        /// hop), whose context goes out in that request's headers (`traceparent` with an
        /// OpenTelemetry tracer); `nil`, the default, traces nothing. Needs the `Tracing` trait.
        ///
        /// ```swift
        /// configuration.tracer = InstrumentationSystem.tracer
        /// ```
        ///
        /// The send's span is a child of the sending task's `ServiceContext.current` and has no
        /// HTTP attributes. A CLIENT span carries `http.request.method`, `url.full` redacted with
        /// ``sensitiveData``, `server.address`, `server.port`, `http.response.status_code`,
        /// `http.request.resend_count` and, when the request failed, `error.type` and an error
        /// status. Each ends exactly once, also when the send is cancelled.
        public var tracer: (any Tracer)? {
            get { observer(of: TracingObserver.self)?.tracer }
            set { setObserver(newValue.map(TracingObserver.init(tracer:))) }
        }
    }
#endif
