import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionNetwork {
    /// Runs the stages for `request` until a response passes validation, retrying from will-begin
    /// when a completed action or the retry policy asks for it.
    func perform(
        _ request: NetworkRequest,
        requestType: ObjectIdentifier?,
        priority: RequestPriority,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // Authentication lets a login sent from inside a refresh leave the queue first.
        let priority = RefreshMarker.priority(for: priority)
        do {
            // `cancelAll` cancels the send registered here, never the caller's task.
            return try await activeSends.track(requestType) { cancellation in
                context.cancellation = cancellation
                try ensureNotInvalidated()
                return try await performAttempts(request, priority: priority, context: &context)
            }
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
        // Authentication keeps credentials on the base URL's origin.
        request.customProperties[NetworkBaseURL.self] = configuration.baseURL
        while true {
            if context.isCancelled { throw NetworkError.cancelled }
            let retryDelay: Duration
            do {
                switch try await attempt(request, priority: priority, context: &context) {
                case .finished(let response): return response
                case .retry(let delay): retryDelay = delay
                }
            } catch let error as NetworkError where !error.isCancellation {
                guard let policy = configuration.retryPolicy, context.attempts > 0 else { throw error }
                guard policy.shouldRetry(context.request, after: error, attempt: context.attempts) else {
                    // Only a failure the policy would have retried, had attempts remained, means the
                    // retries ran out; any other (a 404 after a 503) reaches the caller as it is.
                    let exhausted =
                        context.attempts > 1 && policy.shouldRetry(context.request, after: error, attempt: 0)
                    throw exhausted
                        ? NetworkError.retriesExhausted(attempts: context.attempts, lastError: error) : error
                }
                retryDelay = policy.delay(after: context.attempts, response: error.response)
            }
            if retryDelay > .zero { try await SendCancellation.sleep(for: retryDelay) }
            // Each attempt starts from the request as built, but what actions noted in its custom
            // properties (an auth action's "already refreshed once") carries over.
            request.customProperties = context.request.customProperties
        }
    }

    private enum AttemptOutcome {
        case finished(NetworkResponse)
        case retry(after: Duration)
    }

    /// Runs one attempt: will-begin, transport, response-began, completed, validation.
    private func attempt(
        _ request: NetworkRequest,
        priority: RequestPriority,
        context: inout SendContext
    ) async throws -> AttemptOutcome {
        let stages = actions.snapshot
        var prepared = request
        // A body's own content type beats a default one; a request's own header beats both.
        prepared.headers.addMissing(
            from: configuration.defaultHeaders,
            except: prepared.body?.impliedContentType != nil ? "Content-Type" : nil)
        let willBeginStart = context.clock.now
        for action in stages.willBegin {
            // Without a time limit the action is called directly: no closure, no allocation.
            if let timeout = configuration.actionTimeout {
                prepared = try await ActionDeadline.run(action, timeout: timeout) { [prepared] in
                    try await action.requestWillBegin(prepared)
                }
            } else {
                prepared = try await action.requestWillBegin(prepared)
            }
            if context.isCancelled { throw NetworkError.cancelled }
        }
        // A storage send's validators go on only now that the actions have said whose request it is.
        prepared.applyPendingRevalidation()
        context.request = prepared
        context.timings.willBegin = context.elapsed(since: willBeginStart)

        var response = try await transmit(prepared, priority: priority, stages: stages, context: &context)
        context.response = response
        for action in stages.responseBegan {
            action.responseBegan(request: context.request, response: response)
        }

        for action in stages.completed {
            let decision: ResponseDecision
            if let timeout = configuration.actionTimeout {
                decision = try await ActionDeadline.run(action, timeout: timeout) {
                    [wire = context.request, response] in
                    try await action.responseCompleted(request: wire, response: response)
                }
            } else {
                decision = try await action.responseCompleted(request: context.request, response: response)
            }
            if context.isCancelled { throw NetworkError.cancelled }
            switch decision {
            case .proceed(let changed):
                response = changed
                context.response = changed
            case .retry(let delay):
                guard context.attempts <= configuration.maximumRetries else {
                    throw NetworkError.retryLimitReached(attempts: context.attempts, response: response)
                }
                return .retry(after: delay)
            }
        }

        // Read from the request as sent, so a will-begin action may change what is acceptable.
        let acceptable = context.request.acceptableStatusCodes ?? configuration.acceptableStatusCodes
        guard acceptable.contains(response.statusCode) else {
            throw NetworkError.unacceptableStatusCode(response)
        }
        return .finished(response)
    }

    /// Encodes, waits for a slot, tells the began actions, and sends; the slot is freed as soon as
    /// the transport is done, so slow completed actions do not hold it. With coalescing on, an
    /// identical GET in progress is joined instead, without a slot (see `sendCoalesced`).
    private func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // Encoded before the queue, since identical requests are found by what goes on the wire.
        let wire = try WireRequest(request, configuration: configuration)
        context.request = wire.request
        let (data, urlResponse): (Data, URLResponse)
        if let key = CoalescingKey(wire, isEnabled: configuration.coalescesIdenticalRequests) {
            (data, urlResponse) = try await sendCoalesced(
                wire, key: key, priority: priority, stages: stages, context: &context)
        } else {
            let queueStart = context.clock.now
            if let admission { try await admission.acquire(priority: priority) }
            defer { admission?.release() }
            let transportStart = begin(wire.request, stages: stages, queuedSince: queueStart, context: &context)
            (data, urlResponse) = try await TransportCall.send(wire.urlRequest, through: session, timeout: wire.timeout)
            context.timings.transport = context.elapsed(since: transportStart)
        }
        guard let httpResponse = urlResponse as? HTTPURLResponse else {
            throw NetworkError.invalidResponse
        }
        // A session without its own limit (a plain URLSession) is still held to the configured one.
        if let limit = configuration.maximumResponseSize, data.count > limit {
            throw NetworkError.responseTooLarge(limit: limit)
        }
        var response = NetworkResponse(httpResponse, body: data, request: wire.request)
        response.timings = context.timings
        return response
    }

    /// Counts the attempt and tells the began actions once the request is on the wire; returns
    /// the moment the transport began.
    func begin(
        _ request: NetworkRequest,
        stages: ActionStages,
        queuedSince queueStart: ContinuousClock.Instant,
        context: inout SendContext
    ) -> ContinuousClock.Instant {
        context.timings.queueWait = context.elapsed(since: queueStart)
        context.attempts += 1
        for action in stages.began {
            action.requestBegan(request)
        }
        return context.clock.now
    }
}
