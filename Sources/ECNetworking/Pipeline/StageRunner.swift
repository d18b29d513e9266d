/// Puts one attempt's request on the wire for a ``StageRunner``: the only step that differs
/// between the real network (encoding, admission or a joined identical call, the session) and a
/// test double (a stub).
///
/// A conforming type counts the attempt and tells the began actions with
/// ``SendContext/begin(_:stages:queuedSince:)`` once the request goes out, leaves the request as
/// sent in ``SendContext/request``, and returns the response with its request set.
package protocol AttemptTransport {
    /// Sends `request`, as the will-begin actions left it, and returns the response.
    // On the runner's executor: the send's `inout` context is handed over and back without an
    // executor switch at every attempt.
    nonisolated(nonsending) func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse
}

/// The stages every send runs, whatever carries it: will-begin, the transport step (admission,
/// began, the wire), response-began, completed, validation of the request as sent, with the
/// retries completed actions and the retry policy ask for; and, around a whole send, the metrics
/// hook and the failure actions.
///
/// The transport is a generic parameter rather than a closure or an existential, so the real
/// network's attempts cost no extra allocation or indirect call.
package struct StageRunner: Sendable {
    package let configuration: NetworkConfiguration
    package let actions: ActionRegistry
    /// The configuration's ``NetworkConfiguration/sensitiveData``, prepared once.
    let redaction: Redaction
    /// Everything that watches this runner's sends: the integrations the configuration names and,
    /// when the runner logs, the logging observer, last.
    let observers: [any SendObserver]

    /// Creates a runner whose actions are `actions`, as they are when each attempt begins; it
    /// logs nothing, whatever the configuration says (a test double has no wire to log).
    package init(configuration: NetworkConfiguration, actions: ActionRegistry) {
        self.init(
            configuration: configuration, actions: actions, redaction: Redaction(configuration.sensitiveData),
            logs: false)
    }

    /// Creates a runner that also logs, when `logs` and the configuration's
    /// ``NetworkConfiguration/logging`` are both on.
    init(configuration: NetworkConfiguration, actions: ActionRegistry, redaction: Redaction, logs: Bool) {
        // Every network's configuration, the test double's included, names what descriptions hide.
        Redaction.registerForDescriptions(configuration.sensitiveData)
        self.configuration = configuration
        self.actions = actions
        self.redaction = redaction
        var observers = configuration.observers
        if logs && configuration.logging {
            observers.append(LoggingObserver(options: configuration.loggingOptions, redaction: redaction))
        }
        self.observers = observers
    }

    /// Runs one whole send of the typed `request`, as every network of the package does: builds it
    /// (``Request/networkRequest(baseURL:)``), then runs it as ``send(_:registration:as:priority:reading:through:finishing:)``
    /// does and decodes the validated response
    /// (``Request/decodedResponse(from:configuration:)``). A build that throws ends the send before
    /// anything is reported.
    // Inlined into each typed send, as the untyped form is: the decoding is a synchronous step of
    // the same frame.
    @inline(__always) nonisolated(nonsending) package func send<R: Request, Transport: AttemptTransport>(
        _ request: R,
        registration: SendRegistration,
        priority: RequestPriority,
        reading: BodyReading? = nil,
        through makeTransport: () -> Transport
    ) async throws -> R.Response {
        let built = try request.networkRequest(baseURL: configuration.baseURL)
        return try await send(
            built, registration: registration, as: ObjectIdentifier(R.self), priority: priority, reading: reading,
            through: makeTransport
        ) { response, context in
            // Without response actions, decoding starts from the reading that ended the transport;
            // and a send whose metrics nobody reads does not time its decoding at all.
            let decodingStart = context.isReported && context.transportEnd == nil ? SendClock.now : nil
            let value = try request.decodedResponse(from: response, configuration: configuration)
            try context.endDecoding(startedAt: decodingStart)
            return value
        }
    }

    /// Runs one whole send of `request`, in order: notes it for the metrics hook, the failure
    /// actions and the observers (``reportingMetrics(of:_:)``), registers it and runs its attempts
    /// (``run(_:registration:as:priority:through:context:)``), hands the validated response to
    /// `finish` (decoding, a stream's head, storage), and reports the send's one end: at once, or
    /// when a body `finish` leaves streaming ends. `reading` says how a send that reads its body
    /// itself reads it.
    ///
    /// Every send of every network of the package, the test double's included, goes through here:
    /// registering, cancelling, running and reporting a send are written here alone. What a send
    /// does around it is its own: a storage send reads the store first and keeps the answer (or,
    /// when a revalidated answer cannot be used, sends once more), a stream applies a resumed
    /// download's range and ends its progress.
    // Inlined into each send and run on the caller's executor: the stages, the transport step and
    // `finish` share the sending task's frame and its `inout` context.
    @inline(__always) nonisolated(nonsending) package func send<Transport: AttemptTransport, Value>(
        _ request: NetworkRequest,
        registration: SendRegistration,
        as requestType: ObjectIdentifier?,
        priority: RequestPriority,
        reading: BodyReading? = nil,
        through makeTransport: () -> Transport,
        finishing finish: nonisolated(nonsending) (NetworkResponse, inout SendContext) async throws -> Value
    ) async throws -> Value {
        try await reportingMetrics(of: request) { context in
            context.bodyReading = reading
            let response = try await run(
                request, registration: registration, as: requestType, priority: priority, through: makeTransport,
                context: &context)
            return try await finish(response, &context)
        }
    }

    /// Runs the attempts of a send of `request` (``run(_:priority:through:context:)``) for
    /// ``send(_:registration:as:priority:reading:through:finishing:)``: registered as `registration`
    /// says, as a send of `requestType`, so that `cancelAll` and invalidation reach it without
    /// cancelling the caller (a new send is refused with ``NetworkError/invalidated`` once its
    /// registry is closed), with the
    /// transport step `makeTransport` makes once the send is registered. Every form of
    /// cancellation reaches the caller and the observers as one error,
    /// ``NetworkError/cancelled``, however it surfaced.
    // Inlined into each send and run on the caller's executor, as `run` is: no async frame of its
    // own, and the `inout` context passes without an executor switch. `makeTransport` is
    // synchronous, so it adds no async frame either.
    @inline(__always) nonisolated(nonsending) private func run<Transport: AttemptTransport>(
        _ request: NetworkRequest,
        registration: SendRegistration,
        as requestType: ObjectIdentifier?,
        priority: RequestPriority,
        through makeTransport: () -> Transport,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        do {
            switch registration {
            case .registeredIn(let registry):
                // Once the registry is closed, `track` refuses the send (`NetworkError.invalidated`).
                return try await registry.track(requestType) { cancellation in
                    context.cancellation = cancellation
                    return try await run(request, priority: priority, through: makeTransport(), context: &context)
                }
            case .partOf(let cancellation):
                // Already the task's current send: the registration that made it set it so.
                context.cancellation = cancellation
                return try await run(request, priority: priority, through: makeTransport(), context: &context)
            }
        } catch is CancellationError {
            throw NetworkError.cancelled
        }
    }

    /// Runs one send of `request` and hands its metrics to the configuration's hook exactly once,
    /// whether it returns or throws, with the request redacted. A send that throws is also
    /// reported, once, to the ``RequestFailedAction``s: every send that goes to the network, typed,
    /// raw or through storage, passes here exactly once with its final error, decoding failures
    /// included (a request whose building threw, and a store's answer, never get here). A send
    /// that returns its head with the body still arriving is reported when the body ends.
    // Inlined into each send (one async frame fewer) and run on the caller's executor, as `body`
    // is, so `body` and the `inout` context it takes need no executor switch.
    @inline(__always) nonisolated(nonsending) private func reportingMetrics<Value>(
        of request: NetworkRequest,
        _ body: nonisolated(nonsending) (inout SendContext) async throws -> Value
    ) async throws -> Value {
        // Only the observers (logging, the integrations) read which send and attempt a request is.
        var context = SendContext(
            request: request, identifiesAttempts: !observers.isEmpty,
            timesWholeSend: configuration.metricsHandler != nil)
        if !observers.isEmpty {
            context.observations = observers.map { $0.sendStarted(request, redaction: redaction) }
        }
        // Taken now, as each attempt takes its stages: an invalidation that drops the actions
        // while this send is ending must not hide its failure from them. The first attempt, which
        // starts at once, runs the same snapshot rather than taking the lock for another.
        let stages = actions.snapshot
        let failureActions = stages.failed
        context.stagesOfFirstAttempt = stages
        do {
            let value =
                context.observations.contains(where: \.needsTaskContext)
                ? try await withinObservations(context.observations, &context, body) : try await body(&context)
            if let streamedBody = context.streamedBody {
                reportWhenEnded(streamedBody, context, failureActions: failureActions)
            } else {
                end(context, error: nil, failureActions: failureActions)
            }
            return value
        } catch {
            end(context, error: error, failureActions: failureActions)
            throw error
        }
    }

    /// Reports a send that returned its head with `body` still arriving once the body ends: a
    /// download that breaks at 90 % is a failed send, with its status and the bytes that came,
    /// not a success timed at its head. A body that ends in an error goes to the failure actions
    /// too.
    private func reportWhenEnded(
        _ body: BodyRelay, _ context: SendContext, failureActions: [any RequestFailedAction]
    ) {
        var atHead = context
        atHead.streamedBody = nil
        // What only the attempts needed: a multipart upload's file goes now, as with any send.
        atHead.encodedMultipart = nil
        atHead.stagesOfFirstAttempt = nil
        body.whenEnded { [self, atHead] bodyEnd in
            var ended = atHead
            ended.streamedByteCount = bodyEnd.byteCount
            end(ended, error: bodyEnd.error, failureActions: failureActions)
        }
    }

    /// Reports the send's one end: to the failure actions when it failed, then to the metrics
    /// hook and the integrations, however it ended.
    private func end(_ context: SendContext, error: (any Error)?, failureActions: [any RequestFailedAction]) {
        if let error {
            // Like every other action, they get the request as sent, unredacted.
            for action in failureActions {
                action.requestFailed(context.request, error: error)
            }
        }
        report(context, error: error)
    }

    /// Runs `body` inside every observation's ``SendObservation/withinSend(_:)``, with the
    /// observations bound for ``ObservedSend``.
    // On the sending task's executor, as `body` is: `body` takes the `inout` context and is not
    // `Sendable`, so it is passed on without an executor switch.
    nonisolated(nonsending) private func withinObservations<Value>(
        _ observations: [any SendObservation],
        _ context: inout SendContext,
        _ body: nonisolated(nonsending) (inout SendContext) async throws -> Value
    ) async throws -> Value {
        try await ObservedSend.$observations.withValue(observations) {
            try await nest(observations[...], &context, body)
        }
    }

    // As `withinObservations`: each level's closure captures the `inout` context, which must stay
    // on the sending task's executor.
    nonisolated(nonsending) private func nest<Value>(
        _ observations: ArraySlice<any SendObservation>,
        _ context: inout SendContext,
        _ body: nonisolated(nonsending) (inout SendContext) async throws -> Value
    ) async throws -> Value {
        guard let first = observations.first else { return try await body(&context) }
        return try await first.withinSend { try await nest(observations.dropFirst(), &context, body) }
    }

    /// Tells the observers that a response store answered `request` without a network call.
    package func reportStoredAnswer(_ request: NetworkRequest, age: Duration, reason: String) {
        for observer in observers {
            observer.storedAnswer(request, age: age, reason: reason)
        }
    }

    /// Tells the observers that a storage send of `request` goes around the store.
    func reportStorageBypassed(_ request: NetworkRequest) {
        for observer in observers {
            observer.storageBypassed(request)
        }
    }

    /// Hands the send's metrics to the hook with their request and error redacted: a hook typically forwards
    /// what it gets to an analytics or monitoring service, which must not receive credentials. The
    /// integrations get them as they are, and redact what they pass on themselves.
    private func report(_ context: SendContext, error: (any Error)?) {
        let observations = context.observations
        // Built only for someone to hand it to: the metrics copy the request and the retry list.
        guard !observations.isEmpty || configuration.metricsHandler != nil else { return }
        let metrics = context.metrics(error: error)
        for observation in observations {
            observation.sendEnded(metrics)
        }
        guard let handler = configuration.metricsHandler else { return }
        var redacted = metrics
        redacted.request = redaction.request(metrics.request)
        redacted.error = metrics.error.map(redaction.error)
        handler(redacted)
    }

    /// Runs attempts of `request` through `transport` until a response passes validation,
    /// retrying from will-begin when a completed action or the retry policy asks for it.
    ///
    /// A send makes at most ``NetworkConfiguration/maximumRetries`` retries, whoever asks for them;
    /// the policy asks only while the send has made fewer than its own
    /// ``RetryPolicy/maximumAttempts``. A retry refused for want of allowance ends the send with
    /// the error named after who asked: ``NetworkError/retryLimitReached(attempts:response:)`` for
    /// an action, ``NetworkError/retriesExhausted(attempts:lastError:)`` for the policy.
    // Inlined into the send (one async frame fewer) and run on the caller's executor, so the
    // `inout` context is used in place, without an executor switch.
    @inline(__always) nonisolated(nonsending) private func run<Transport: AttemptTransport>(
        _ request: NetworkRequest,
        priority: RequestPriority,
        through transport: Transport,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // What actions noted in the custom properties of the attempt before (an auth action's
        // "already refreshed once"), which a retry carries over; `nil` for the first attempt.
        var carriedProperties: CustomProperties?
        while true {
            if context.isCancelled { throw NetworkError.cancelled }
            let retryDelay: Duration
            do {
                switch try await attempt(
                    request, carrying: carriedProperties, priority: priority, through: transport, context: &context)
                {
                case .finished(let response): return response
                case .retry(let delay): retryDelay = delay
                }
            } catch let error as NetworkError where !error.isCancellation {
                guard let policy = configuration.retryPolicy, context.attempts > 0 else { throw error }
                // The policy's retries and the completed actions' share one allowance.
                let allowanceLeft = context.attempts <= configuration.maximumRetries
                guard allowanceLeft, policy.shouldRetry(context.request, after: error, attempt: context.attempts)
                else {
                    // Only a failure the policy would have retried, had attempts remained, means the
                    // retries ran out; any other (a 404 after a 503) reaches the caller as it is.
                    let exhausted =
                        context.attempts > 1 && policy.shouldRetry(context.request, after: error, attempt: 0)
                    throw exhausted
                        ? NetworkError.retriesExhausted(attempts: context.attempts, lastError: error) : error
                }
                // A one-shot stream body was consumed by the attempt; never resend it silently.
                guard request.body?.isReplayable ?? true else {
                    throw NetworkError.bodyNotReplayable(response: error.response, lastError: error)
                }
                context.retriedBy.append(.retryPolicy)
                retryDelay = policy.delay(after: context.attempts, response: error.response)
            }
            if retryDelay > .zero { try await SendCancellation.sleep(for: retryDelay) }
            // Each attempt starts from the request as built, but what actions noted in its custom
            // properties (an auth action's "already refreshed once") carries over.
            carriedProperties = context.request.customProperties
        }
    }

    private enum AttemptOutcome {
        case finished(NetworkResponse)
        case retry(after: Duration)
    }

    /// Runs one attempt and tells the integrations how it ended.
    // Inlined into `run` (one async frame fewer per attempt), on the caller's executor as `run` is.
    @inline(__always) nonisolated(nonsending) private func attempt<Transport: AttemptTransport>(
        _ request: NetworkRequest,
        carrying carriedProperties: CustomProperties?,
        priority: RequestPriority,
        through transport: Transport,
        context: inout SendContext
    ) async throws -> AttemptOutcome {
        guard !context.observations.isEmpty else {
            return try await runStages(
                of: request, carrying: carriedProperties, priority: priority, through: transport, context: &context)
        }
        do {
            let outcome = try await runStages(
                of: request, carrying: carriedProperties, priority: priority, through: transport, context: &context)
            for observation in context.observations {
                observation.attemptEnded(response: context.response, error: nil)
            }
            return outcome
        } catch {
            for observation in context.observations {
                observation.attemptEnded(response: (error as? NetworkError)?.response, error: error)
            }
            throw error
        }
    }

    /// Runs one attempt's stages: will-begin, transport, response-began, completed, validation.
    /// The attempt sends `request` as built, with `carriedProperties` when a retry carries them.
    // Inlined into `attempt` (one async frame fewer per attempt) and run on the caller's executor,
    // so the actions and the transport step are called with the `inout` context and no switch.
    @inline(__always) nonisolated(nonsending) private func runStages<Transport: AttemptTransport>(
        of request: NetworkRequest,
        carrying carriedProperties: CustomProperties?,
        priority: RequestPriority,
        through transport: Transport,
        context: inout SendContext
    ) async throws -> AttemptOutcome {
        let stages = context.stagesOfFirstAttempt.take() ?? actions.snapshot
        var prepared = request
        // Set on the attempt's own copy, not on one kept across attempts, which copied the request.
        if let carriedProperties {
            prepared.customProperties = carriedProperties
        } else if prepared.customProperties[NetworkBaseURL.self] != configuration.baseURL {
            // Authentication keeps credentials on the base URL's origin. Set only when missing: a
            // change copies the storage the request shares with the caller's.
            prepared.customProperties[NetworkBaseURL.self] = configuration.baseURL
        }
        if let identity = context.identity {
            // Log entries and integrations tell the send and this attempt by it.
            prepared.customProperties[SendAttempt.self] = identity.attempt(context.attempts + 1)
        }
        // A body's own content type beats a default one; a request's own header beats both.
        if !configuration.defaultHeaders.isEmpty {
            prepared.headers.addMissing(
                from: configuration.defaultHeaders,
                except: prepared.body?.impliedContentType != nil ? "Content-Type" : nil)
        }
        if stages.willBegin.isEmpty {
            // No time is spent in actions there are none of, so the clock is not read for them.
            context.timings.willBegin = .zero
        } else {
            let willBeginStart = SendClock.now
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
            context.timings.willBegin = context.elapsed(since: willBeginStart)
        }
        // A storage send's validators go on only now that the actions have said whose request it is.
        if let revalidation = prepared.customProperties[PendingRevalidation.Key.self] {
            revalidation.apply(to: &prepared)
        }
        for observation in context.observations {
            observation.attemptWillSend(&prepared)
        }
        context.request = prepared

        // A retry starts again from the request as built, so its body is what would be sent twice.
        // (Read from the parameter: reading it from `context` made every attempt copy the context.)
        let isReplayable = request.body?.isReplayable ?? true
        // Only this attempt's transport may start the decoding's duration (see `SendContext.endTransport`).
        context.transportEnd = nil
        var response = try await transport.transmit(prepared, priority: priority, stages: stages, context: &context)
        var isHandedOver = false
        defer {
            // A body still arriving that no one will read (the attempt is retried, or fails) ends
            // now: it holds a connection, and a download's holds a concurrency slot the next
            // attempt may be waiting for.
            if !isHandedOver, let unread = response.unreadBody {
                unread.relay.stop(with: NetworkError.cancelled)
                // Ended: observers must not wait for it as for a body still arriving.
                response.unreadBody = nil
            }
            // The metrics and integrations read the response as the attempt left it, however it
            // ends: stored once, on the way out, rather than copied in after every completed action,
            // and only for a send someone reports (a copy of a response retains each of its parts).
            if context.isReported { context.response = response }
        }
        if !stages.responseBegan.isEmpty || !stages.completed.isEmpty {
            // The decoding's duration must not count the actions' time.
            context.transportEnd = nil
        }
        for action in stages.responseBegan {
            action.responseBegan(request: context.request, response: response)
        }
        for observation in context.observations {
            observation.responseArrived(request: context.request, response: response)
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
            case .retry(let delay):
                guard context.attempts <= configuration.maximumRetries else {
                    throw NetworkError.retryLimitReached(attempts: context.attempts, response: response)
                }
                guard isReplayable else {
                    throw NetworkError.bodyNotReplayable(response: response, lastError: nil)
                }
                context.retriedBy.append(.completedAction(String(describing: type(of: action))))
                return .retry(after: delay)
            }
        }

        // Read from the request as sent, so a will-begin action may change what is acceptable.
        let acceptable = context.request.acceptableStatusCodes ?? configuration.acceptableStatusCodes
        guard acceptable.contains(response.statusCode) else {
            throw NetworkError.unacceptableStatusCode(response)
        }
        isHandedOver = true
        return .finished(response)
    }
}
