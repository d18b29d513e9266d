#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension AsyncHTTPClientTransport: GatheringTransport {
        /// A task that carries `request` whole through the client's delegate interface (see
        /// ``GatheringTransport``): the client's event loop gathers the body and hands the response
        /// over once, where ``send(_:)`` hops between the loop and Swift tasks for the head and for
        /// every chunk. `nil` for a body from a file or a stream, and bytes over
        /// ``gatheredBodyLimit``, which ``send(_:)`` streams.
        /// The largest data body sent through the delegate interface. There, a body the socket's
        /// buffers cannot take whole, to a server that answers and closes without reading it (a
        /// 401, a 413), never ended: async-http-client 1.37 reported neither the answer nor an
        /// error, and the send waited for its deadline. Through ``send(_:)`` it ends with the
        /// answer or a lost connection at once (HostileUploadTests). Small enough for a receiving
        /// socket's buffer to take it whole, so its write ends whatever the server does.
        static let gatheredBodyLimit = 64 * 1024

        func gatheringTask(for request: TransportRequest, reportingTo call: TransportCall) -> (any SessionTask)? {
            if let refusal { return FailedSessionTask(error: refusal, reportingTo: call) }
            let body: HTTPClient.Body?
            switch request.body?.source {
            case nil: body = nil
            case .bytes(let data)? where data.count <= Self.gatheredBodyLimit: body = .bytes(data)
            case .bytes?, .file?, .stream?: return nil
            }
            let outgoing: HTTPClient.Request
            do {
                outgoing = try HTTPClient.Request(
                    url: request.url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
                    headers: Self.outgoingHeaders(of: request), body: body)
            } catch {
                return FailedSessionTask(error: Self.networkError(for: error), reportingTo: call)
            }
            return GatheringClientExchange(
                transport: self, request: outgoing, url: request.url, limit: request.maximumResponseSize,
                method: request.method, completion: call.gathered)
        }
    }

    /// One exchange carried through `HTTPClient`'s delegate interface, its body gathered on the
    /// client's event loop and counted against the size limit as it arrives.
    ///
    /// Resuming starts the client's task, cancelling cancels it; the completion handler is called
    /// once, from the event loop, with the whole response or the error.
    ///
    /// The client's task gets no deadline of its own, unlike the backstop of
    /// ``AsyncHTTPClientTransport/send(_:)``: a gathering task only ever runs under `TransportCall`,
    /// whose deadline (the request's timeout, when it has one) covers head and body and cancels this
    /// task when it passes. A deadline here would only schedule a timer on an event loop from
    /// another thread, and cancel it again, on every request.
    private final class GatheringClientExchange: HTTPClientResponseDelegate, SessionTask {
        typealias Response = Void

        private struct State {
            /// The client's task, once started; `nil` again once cancelled.
            var task: HTTPClient.Task<Void>?
            var isCancelled = false
            /// How many response heads arrived: more than one means the client followed a redirect.
            var visitedCount = 0
            var head: HTTPResponseHead?
            var body: ByteBuffer?
            /// How many times the request went out again after its connection closed under it.
            var resends = 0
            /// Whether the client wrote the request's head to the connection.
            var sentHead = false
        }

        private let transport: AsyncHTTPClientTransport
        private let request: HTTPClient.Request
        private let url: URL
        private let limit: Int?
        /// The request's method: whether it may be sent twice (its body, from memory, always can
        /// be), and whether a lost connection may have carried it to the server. Kept rather than
        /// the request, which a closure over it would have copied onto the heap for every send.
        private let method: ECNetworking.HTTPMethod
        private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
        // The delegate methods run on the event loop one after another, but `resume` and `cancel`
        // come from other threads, so the state has a lock rather than the loop's isolation.
        private let state = InlineLockedState(State())

        init(
            transport: AsyncHTTPClientTransport, request: HTTPClient.Request, url: URL, limit: Int?,
            method: ECNetworking.HTTPMethod,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) {
            self.transport = transport
            self.request = request
            self.url = url
            self.limit = limit
            self.method = method
            self.completion = completion
        }

        func resume() {
            let task = transport.client.execute(request: request, delegate: self, deadline: nil)
            let isCancelled = state.withLock { state in
                state.task = task
                return state.isCancelled
            }
            if isCancelled { task.cancel() }
            // A client that is shut down refuses the request without telling its delegate: only
            // the task's future fails, and unnoticed, the send would wait for its deadline, or,
            // without one, for ever. So the future is watched where the client may have refused
            // the task: a client passed in, which its owner may have shut down, and one shut down
            // by now (checked after `execute`, so a shutdown during the call is seen too). Watching
            // costs a hop to the event loop, which every other send is spared.
            if transport.owner?.hasShutDown ?? true {
                task.futureResult.whenFailure { [completion] error in
                    // Any other failure reaches the delegate, which reports it; a second report
                    // of the same end is ignored by the call.
                    guard let error = error as? HTTPClientError, error == .alreadyShutdown else { return }
                    completion(.failure(NetworkError.invalidated))
                }
            }
        }

        func cancel() {
            let task = state.withLock { state in
                state.isCancelled = true
                return state.task
            }
            task?.cancel()
        }

        func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
            // Called once the head is written to the connection, not when it is queued.
            state.withLock { $0.sentHead = true }
        }

        func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
            state.withLock { $0.visitedCount += 1 }
        }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            state.withLock { $0.head = head }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            var buffer = buffer
            let limit = limit
            let isOverLimit = state.withLock { state in
                let received = (state.body?.readableBytes ?? 0) + buffer.readableBytes
                if let limit, received > limit { return true }
                if state.body == nil {
                    state.body = buffer
                } else {
                    state.body?.writeBuffer(&buffer)
                }
                return false
            }
            // A failed future makes the client stop the transfer and report this very error.
            guard let limit, isOverLimit else { return task.eventLoop.makeSucceededVoidFuture() }
            return task.eventLoop.makeFailedFuture(NetworkError.responseTooLarge(limit: limit))
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
            // A connection the server had just closed, before any answer: again, on the next one
            // (see `AsyncHTTPClientTransport.resendsAfterClosedConnection`).
            let (resends, hadHead) = state.withLock { state in
                guard state.head == nil, state.resends < AsyncHTTPClientTransport.maximumResends, !state.isCancelled,
                    AsyncHTTPClientTransport.resendsAfterClosedConnection(
                        error: error, requestWasWritten: state.sentHead, isIdempotent: method.isIdempotent,
                        bodyIsReplayable: true)
                else { return (false, state.head != nil) }
                state.resends += 1
                state.sentHead = false
                state.task = nil
                return (true, false)
            }
            if resends {
                resume()
                return
            }
            let mapped = AsyncHTTPClientTransport.networkError(for: error)
            completion(.failure(hadHead ? mapped : NetworkError.markingMayHaveBeenSent(mapped, method: method)))
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            let (head, body, visitedCount) = state.withLock { state in
                defer { state.body = nil }
                return (state.head, state.body, state.visitedCount)
            }
            // More than one head means the client followed a redirect itself (see
            // `AsyncHTTPClientTransport.init(client:)`).
            guard let head, visitedCount <= 1 else {
                completion(.failure(NetworkError.invalidResponse))
                return
            }
            let data = body.map { Data($0.readableBytesView) } ?? Data()
            completion(
                .success(
                    TransportResponse(
                        statusCode: Int(head.status.code),
                        headers: AsyncHTTPClientTransport.receivedHeaders(head.headers),
                        url: url, body: ByteStream(data))))
        }
    }
#endif
