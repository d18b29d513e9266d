extension URLSessionNetwork {
    /// Runs one send of `request` and hands its metrics to the configuration's hook exactly once,
    /// whether it returns or throws, with the request redacted. A send that throws is also
    /// reported, once, to the ``RequestFailedAction``s: every send, typed, raw or through storage,
    /// passes here exactly once with its final error, decoding failures included.
    func reportingMetrics<Value>(
        of request: NetworkRequest,
        _ body: (inout SendContext) async throws -> Value
    ) async throws -> Value {
        var context = SendContext(request: request)
        // Taken now, as each attempt takes its stages: an invalidation that drops the actions
        // while this send is ending must not hide its failure from them.
        let failureActions = actions.failureActions
        do {
            let value = try await body(&context)
            report(context.metrics(error: nil))
            return value
        } catch {
            // Like every other action, they get the request as sent, unredacted.
            for action in failureActions {
                action.requestFailed(context.request, error: error)
            }
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
