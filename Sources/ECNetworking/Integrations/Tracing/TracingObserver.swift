#if Tracing
    import Tracing

    /// Starts a ``TracedSend`` for every send of a network whose configuration has a tracer.
    struct TracingObserver: SendObserver {
        let tracer: any Tracer

        func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation {
            TracedSend(tracer: tracer, request: request, redaction: redaction)
        }
    }
#endif
