extension URLSessionNetwork {
    /// Runs one send of `request` and hands its metrics to the configuration's hook exactly once,
    /// whether it returns or throws.
    func reportingMetrics<Value>(
        of request: NetworkRequest,
        _ body: (inout SendContext) async throws -> Value
    ) async throws -> Value {
        var context = SendContext(request: request)
        do {
            let value = try await body(&context)
            configuration.metricsHandler?(context.metrics(error: nil))
            return value
        } catch {
            configuration.metricsHandler?(context.metrics(error: error))
            throw error
        }
    }
}
