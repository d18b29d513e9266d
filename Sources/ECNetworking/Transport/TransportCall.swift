import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt on the wire through a ``TransportRoute``: it sends the request, follows redirects
/// with the route's ``RedirectFollower``, reads the body up to the size limit, and ends exactly
/// once with the response, an error, the deadline, or cancellation, whichever comes first.
///
/// A transport that can gather a whole exchange itself (a ``GatheringTransport``) carries each hop
/// as a task of its own that answers through a completion handler: no Swift task, and one hand-over
/// of the answer. Any other transport, or a request whose body is a one-shot stream, runs the
/// exchange in a Swift task instead, so that the deadline (which covers head and body) and
/// cancellation end the call at once even when a transport ignores cancellation; ending the call
/// early cancels that task, which is how the transport learns to drop the connection.
final class TransportCall: DeadlineTarget {
    typealias Outcome = Result<NetworkResponse, any Error>

    /// What the call holds while it runs, released by whichever ending comes first.
    private struct Resources: Sendable {
        /// The Swift task running the exchange, on the streaming path.
        var exchange: Task<Void, Never>?
        /// The transport's task for the current hop, on the gathering path.
        var hop: (any SessionTask)?
        /// The request of the current hop and the redirects followed before it, once the call has
        /// followed a redirect; before that, the hop is `request`. Kept here rather than captured
        /// by the hop's completion handler, which then captures the call alone and allocates nothing.
        var redirect: (request: TransportRequest, followed: Int)?
        var deadline: DeadlineScheduler.Token?
        /// Whether a hop went out with cookies from the network's store, on the gathering path:
        /// the answer is then one for the user they name (see ``NetworkResponse/sentStoredCookies``).
        var sentStoredCookies = false
    }

    private let request: TransportRequest
    private let route: TransportRoute
    /// Whether the call reads the body itself, or ends at the head and leaves the body, unread, in
    /// the response's ``NetworkResponse/bodyOnTheWire`` (a streamed send), for `Streaming/` to own.
    private let collectsBody: Bool
    /// When the call began, if the caller read the clock just before; else its deadline counts
    /// from when it starts.
    private let began: SendMoment?
    /// Whom the outcome goes to: the sending task itself, or a handler. A type of its own, not a
    /// bare closure: a closure stored as a generic argument is reabstracted through a thunk, and a
    /// closure around the task's continuation would be one more allocation per call.
    private enum Waiter: Sendable {
        case task(UnsafeContinuation<NetworkResponse, any Error>)
        case handler(@Sendable (Outcome) -> Void)

        func receive(_ outcome: Outcome) {
            switch self {
            case .task(let continuation): continuation.resume(with: outcome)
            case .handler(let handler): handler(outcome)
            }
        }
    }

    // The handoff lives inline with its lock; on Linux inside the call itself, so a call is one
    // allocation (see `InlineLockedState`).
    private let state = InlineLockedState(OneShotHandoff<Waiter, Outcome, Resources>(resources: Resources()))

    /// A call that sends `request` along `route`, ended by `request.timeout` if it has one; with
    /// `collectsBody` false it ends at the final head, and the timeout covers no more than that.
    init(
        _ request: TransportRequest, on route: TransportRoute, collectsBody: Bool = true,
        startedAt start: SendMoment? = nil
    ) {
        self.request = request
        self.route = route
        self.collectsBody = collectsBody
        self.began = start
    }

    /// Sends `request` and waits; cancelling the calling task, or its send, `cancellation` (the
    /// task's current send, which the caller holds), cancels the call.
    // Inlined into the transport step (one async frame fewer per attempt) and run on the caller's
    // executor, so the attempt pays no executor switch into it and back.
    @inline(__always) nonisolated(nonsending) static func send(
        _ request: TransportRequest, on route: TransportRoute, collectingBody collectsBody: Bool = true,
        startedAt start: SendMoment? = nil, cancellation: SendCancellation?
    ) async throws -> NetworkResponse {
        let call = TransportCall(request, on: route, collectsBody: collectsBody, startedAt: start)
        return try await SendCancellation.withCancellationHandler(of: cancellation) {
            // Unchecked: `finish` hands the outcome out once, under the lock, so the continuation is
            // resumed exactly once; the checked kind would cost an allocation per request.
            // No check for cancellation here: one that came first has already ended the call
            // (the handler runs at once when registered late), so `start` hands back
            // `NetworkError.cancelled` without starting anything.
            try await withUnsafeThrowingContinuation { continuation in
                call.start(Waiter.task(continuation))
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// Starts the exchange; `completion` is called exactly once, possibly before this returns.
    func start(completion: @escaping @Sendable (Outcome) -> Void) {
        start(Waiter.handler(completion))
    }

    private func start(_ waiter: Waiter) {
        if collectsBody, let gathering = route.gathering {
            // The first hop's task is made before the lock and resumed only after it, so one lock
            // both registers the waiter and stores the task and the deadline.
            let deadline = scheduleDeadline()
            var addsStoredCookies = false
            let sent = route.sent(request, addsStoredCookies: &addsStoredCookies)
            if let task = gathering.gatheringTask(for: sent, reportingTo: self) {
                let earlyOutcome = state.withLock { state -> Outcome? in
                    if let earlyOutcome = state.wait(waiter) { return earlyOutcome }
                    _ = state.updateResources { resources in
                        resources.hop = task
                        resources.deadline = deadline
                        resources.sentStoredCookies = addsStoredCookies
                    }
                    return nil
                }
                guard let earlyOutcome else { return task.resume() }
                // Ended before it started (cancelled first): nothing was sent.
                if let deadline { DeadlineScheduler.shared.cancel(deadline) }
                task.cancel()
                return waiter.receive(earlyOutcome)
            }
            if let deadline { DeadlineScheduler.shared.cancel(deadline) }
        }
        if let earlyOutcome = state.withLock({ $0.wait(waiter) }) {
            waiter.receive(earlyOutcome)
            return
        }
        // Scheduled before the first hop starts, so that it is stored with the hop, under one lock.
        let deadline = scheduleDeadline()
        start(request, followed: 0, deadline: deadline)
    }

    /// Schedules the call's deadline, if its request has a timeout.
    private func scheduleDeadline() -> DeadlineScheduler.Token? {
        guard let timeout = request.timeout else { return nil }
        return DeadlineScheduler.shared.schedule(at: (began ?? SendClock.now) + timeout, self)
    }

    /// Starts the hop that sends `hop`, the first or one following a redirect, and stores what it
    /// holds; when the call has ended meanwhile (the deadline passed, or it was cancelled and found
    /// nothing to cancel), what was just set up is released again instead.
    private func start(_ hop: TransportRequest, followed: Int, deadline: DeadlineScheduler.Token? = nil) {
        let gathering = collectsBody ? route.gathering : nil
        var addsStoredCookies = false
        // The hop is given its cookies only when it goes out here: a task of `exchange` adds its own.
        let transportTask = gathering?.gatheringTask(
            for: route.sent(hop, addsStoredCookies: &addsStoredCookies), reportingTo: self)
        let exchange: Task<Void, Never>? =
            transportTask != nil
            ? nil
            : Task {
                do {
                    self.finish(.success(try await self.exchange(from: hop, followed: followed)))
                } catch {
                    self.finish(.failure(NetworkError.normalize(error)))
                }
            }
        let stored = state.withLock { state in
            state.updateResources { resources in
                if let transportTask {
                    resources.hop = transportTask
                    if followed > 0 { resources.redirect = (hop, followed) }
                    if addsStoredCookies { resources.sentStoredCookies = true }
                }
                if let exchange { resources.exchange = exchange }
                if let deadline { resources.deadline = deadline }
            }
        }
        guard stored else {
            if let deadline { DeadlineScheduler.shared.cancel(deadline) }
            exchange?.cancel()
            transportTask?.cancel()
            return
        }
        transportTask?.resume()
    }

    /// The largest body the call accepts, for a transport that holds a body to it itself.
    var maximumResponseSize: Int? { request.maximumResponseSize }

    /// Ends the call with ``NetworkError/cancelled`` unless it already ended.
    func cancel() {
        finish(.failure(NetworkError.cancelled))
    }

    /// Ends the call with ``NetworkError/timedOut(after:)`` unless it already ended.
    func deadlinePassed() {
        finish(.failure(NetworkError.timedOut(after: request.timeout ?? .zero)))
    }

    /// A gathered hop ended with a response a `URLSession` delivered and its whole body: the call
    /// ends with it, unless it may be a redirect to follow, which ``gathered(_:)`` sees to.
    ///
    /// The response goes straight into the ``NetworkResponse``: a ``TransportResponse`` in a
    /// `Result` on the way cost a copy of its every field and two releases of each.
    func gathered(_ response: HTTPURLResponse, body: Data) {
        guard !route.redirects.mayFollow(statusCode: response.statusCode), let url = response.url else {
            return gathered(.success(TransportResponse(response, body: ByteStream(body))))
        }
        if let cookies = route.cookies, let setCookie = response.value(forHTTPHeaderField: "Set-Cookie") {
            cookies.store(setCookieFields: [setCookie], from: url)
        }
        finish(.success(NetworkResponse(response, body: body)))
    }

    /// A gathered hop failed: the call ends with the error.
    func gatheringFailed(_ error: any Error) {
        finish(.failure(NetworkError.normalize(error)))
    }

    /// A gathered hop ended: the call ends with it, unless it is a redirect to follow. A
    /// ``GatheringTransport``'s task calls it, ``gathered(_:body:)`` or ``gatheringFailed(_:)``
    /// once per hop.
    func gathered(_ outcome: consuming Result<TransportResponse, any Error>) {
        // Consumed, so the response moves out of the outcome rather than being copied.
        let response: TransportResponse
        switch consume outcome {
        case .failure(let error): return finish(.failure(NetworkError.normalize(error)))
        case .success(let value): response = value
        }
        route.cookies?.storeCookies(of: response.headers, from: response.url)
        // Most hops end the call: then `finish`, which ignores a call that already ended, is the
        // only lock taken. Only a redirect to follow needs the hop it answers, read under the lock.
        if !route.redirects.mayFollow(response), let url = response.url {
            let body = response.body.gathered ?? Data()
            return finish(.success(NetworkResponse(response, body: body, requestedURL: url)))
        }
        // The hop being followed, when it is not the first; read in place rather than copied.
        var redirect: (request: TransportRequest, followed: Int)?
        let isRunning = state.withLock { state in
            state.updateResources { resources in
                if resources.redirect != nil { redirect = resources.redirect }
            }
        }
        // Ended meanwhile (deadline, cancellation): nothing is left to tell.
        guard isRunning else { return }
        do {
            // Each branch reads its hop in place: `redirect?.request ?? request` made a copy.
            let next =
                if let redirect {
                    try route.redirects.request(
                        following: response, of: redirect.request, originalURL: request.url,
                        followed: redirect.followed)
                } else {
                    try route.redirects.request(following: response, of: request, originalURL: request.url, followed: 0)
                }
            if let next {
                start(next, followed: (redirect?.followed ?? 0) + 1)
                return
            }
        } catch {
            finish(.failure(NetworkError.normalize(error)))
            return
        }
        let url = redirect.map(\.request.url) ?? request.url
        finish(.success(NetworkResponse(response, body: response.body.gathered ?? Data(), requestedURL: url)))
    }

    /// The exchange on the streaming path: every hop of the redirect chain from `hop` on, then the
    /// final body.
    private func exchange(from hop: TransportRequest, followed: Int) async throws -> NetworkResponse {
        var current = hop
        var followed = followed
        var sentStoredCookies = false
        while true {
            let response = try await route.transport.send(
                route.sent(current, addsStoredCookies: &sentStoredCookies))
            route.cookies?.storeCookies(of: response.headers, from: response.url ?? current.url)
            guard
                let next = try route.redirects.request(
                    following: response, of: current, originalURL: request.url, followed: followed)
            else {
                guard collectsBody else {
                    var head = NetworkResponse(response, body: Data(), requestedURL: current.url)
                    head.bodyOnTheWire = response.body
                    return sentStoredCookies ? head.markingSentStoredCookies() : head
                }
                let body = try await response.body.collect(upTo: current.maximumResponseSize)
                let whole = NetworkResponse(response, body: body, requestedURL: current.url)
                return sentStoredCookies ? whole.markingSentStoredCookies() : whole
            }
            // The 3xx body is dropped unread: a transport ends a body stream its consumer lets go.
            followed += 1
            current = next
        }
    }

    /// Ends the call with `outcome` unless it already ended; a failure also cancels the exchange.
    private func finish(_ outcome: Outcome) {
        guard let ending = state.withLock({ $0.finish(outcome) }) else { return }
        if let deadline = ending.resources.deadline { DeadlineScheduler.shared.cancel(deadline) }
        if case .failure = outcome {
            ending.resources.exchange?.cancel()
            ending.resources.hop?.cancel()
        } else if ending.resources.sentStoredCookies, case .success(let response) = outcome {
            // Noted on the response only now, when the gathered hops that carried them are known.
            ending.waiter?.receive(.success(response.markingSentStoredCookies()))
            return
        }
        ending.waiter?.receive(outcome)
    }
}
