extension URLSessionNetwork {
    /// Runs one send of `request` and hands its metrics to the configuration's hook exactly once,
    /// whether it returns or throws, with the request redacted.
    func reportingMetrics<Value>(
        of request: NetworkRequest,
        _ body: (inout SendContext) async throws -> Value
    ) async throws -> Value {
        var context = SendContext(request: request)
        do {
            let value = try await body(&context)
            report(context.metrics(error: nil))
            return value
        } catch {
            report(context.metrics(error: error))
            throw error
        }
    }

    /// Hands `metrics` to the hook with its request redacted: a hook typically forwards what it
    /// gets to an analytics or monitoring service, which must not receive credentials.
    private func report(_ metrics: RequestMetrics) {
        guard let handler = configuration.metricsHandler else { return }
        var redacted = metrics
        redacted.request = redaction.request(metrics.request)
        handler(redacted)
    }
}
