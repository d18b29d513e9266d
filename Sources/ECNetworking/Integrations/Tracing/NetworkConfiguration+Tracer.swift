#if Tracing
    import Tracing

    extension NetworkConfiguration {
        /// The tracer that records one client span per send, with a child span per attempt, and
        /// whose context goes out in each attempt's headers (`traceparent` with an OpenTelemetry
        /// tracer); `nil`, the default, traces nothing. Needs the `Tracing` trait.
        ///
        /// ```swift
        /// configuration.tracer = InstrumentationSystem.tracer
        /// ```
        ///
        /// The send's span is a child of the sending task's `ServiceContext.current`. Spans carry
        /// OpenTelemetry's HTTP client attributes (`http.request.method`, `url.full` redacted with
        /// ``sensitiveData``, `server.address`, `http.response.status_code`,
        /// `http.request.resend_count`, `error.type`) and an error status when the send or attempt
        /// fails. Each ends exactly once, also when the send is cancelled.
        public var tracer: (any Tracer)? {
            get { observer(of: TracingObserver.self)?.tracer }
            set { setObserver(newValue.map(TracingObserver.init(tracer:))) }
        }
    }
#endif
