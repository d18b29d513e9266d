import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionNetwork {
    /// Runs the stages for `request` until a response passes validation, retrying from will-begin
    /// when a completed action asks for it.
    func perform(
        _ request: NetworkRequest,
        priority: RequestPriority,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        do {
            return try await performAttempts(request, priority: priority, context: &context)
        } catch {
            // Every form of cancellation reaches the caller as one error, however it surfaced.
            let error: any Error = error is CancellationError ? NetworkError.cancelled : error
            loggingAction?.logFailure(of: context.request, error: error)
            throw error
        }
    }

    private func performAttempts(
        _ request: NetworkRequest,
        priority: RequestPriority,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        var request = request
        while true {
            if Task.isCancelled { throw NetworkError.cancelled }
            let stages = actions.snapshot

            var prepared = request
            prepared.headers.addMissing(from: configuration.defaultHeaders)
            let willBeginStart = context.clock.now
            for action in stages.willBegin {
                prepared = try await action.requestWillBegin(prepared)
                if Task.isCancelled { throw NetworkError.cancelled }
            }
            context.request = prepared
            context.timings.willBegin = context.elapsed(since: willBeginStart)

            var response = try await transmit(prepared, priority: priority, stages: stages, context: &context)
            context.attempts += 1
            context.response = response
            for action in stages.responseBegan {
                action.responseBegan(request: context.request, response: response)
            }

            var retryDelay: Duration?
            for action in stages.completed {
                switch try await action.responseCompleted(request: context.request, response: response) {
                case .proceed(let changed):
                    response = changed
                case .retry(let delay):
                    retryDelay = delay
                }
                if retryDelay != nil { break }
            }
            context.response = response
            if let retryDelay {
                guard context.attempts <= configuration.maximumRetries else {
                    throw NetworkError.retryLimitReached(attempts: context.attempts, response: response)
                }
                if retryDelay > .zero { try await Task.sleep(for: retryDelay) }
                // Each attempt starts from the request as built, but what actions noted in its custom
                // properties (an auth action's "already refreshed once") carries over.
                request.customProperties = context.request.customProperties
                continue
            }

            let acceptable = request.acceptableStatusCodes ?? configuration.acceptableStatusCodes
            guard acceptable.contains(response.statusCode) else {
                throw NetworkError.unacceptableStatusCode(response)
            }
            return response
        }
    }

    /// Waits for a slot, encodes, tells the began actions, and sends; the slot is freed as soon as
    /// the transport is done, so slow completed actions do not hold it.
    private func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        let queueStart = context.clock.now
        if let admission { try await admission.acquire(priority: priority) }
        defer { admission?.release() }
        context.timings.queueWait = context.elapsed(since: queueStart)

        let wire = try WireRequest(request, configuration: configuration)
        context.request = wire.request
        for action in stages.began {
            action.requestBegan(wire.request)
        }
        let transportStart = context.clock.now
        let (data, urlResponse) = try await TransportCall.send(wire.urlRequest, through: session, timeout: wire.timeout)
        context.timings.transport = context.elapsed(since: transportStart)
        guard let httpResponse = urlResponse as? HTTPURLResponse else {
            throw NetworkError.invalidResponse
        }
        var response = NetworkResponse(httpResponse, body: data, request: wire.request)
        response.timings = context.timings
        return response
    }
}
