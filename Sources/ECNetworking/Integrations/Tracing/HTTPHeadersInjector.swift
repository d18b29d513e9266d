#if Tracing
    import Tracing

    /// Writes a tracer's context fields (`traceparent`, `tracestate`…) into a request's headers,
    /// replacing any field of the same name, so a retry carries its own attempt's context.
    struct HTTPHeadersInjector: Injector {
        func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
            headers[key] = value
        }
    }
#endif
