#if canImport(Combine)
    import Combine

    extension Network {
        /// Sends a request when a subscriber subscribes, and publishes its typed response then
        /// finishes, or fails with the send's error, unchanged.
        ///
        /// ```swift
        /// network.publisher(for: ListUsersRequest(online: true))
        ///     .receive(on: DispatchQueue.main)
        ///     .sink { completion in … } receiveValue: { users in … }
        ///     .store(in: &subscriptions)
        /// ```
        ///
        /// Each subscription makes its own send, in a task of its own; cancelling the subscription
        /// cancels that task, so the send ends with ``NetworkError/cancelled`` wherever it is
        /// (queued, in an action, on the wire). ``responses(for:priority:)`` is the same as an
        /// `AsyncSequence`, on every platform.
        public func publisher<R: Request>(
            for request: R,
            priority: RequestPriority = .normal
        ) -> AnyPublisher<R.Response, any Error> {
            Deferred {
                var send: Task<Void, Never>?
                // `Future` runs this closure at once, so `send` is set before `handleEvents` reads
                // it, and keeps the result for a subscriber that attaches after the send ended.
                let future = Future<R.Response, any Error> { promise in
                    // Safe: a Future's promise may be called from any thread (it locks its own
                    // state); Combine just does not mark the closure Sendable.
                    nonisolated(unsafe) let fulfil = promise
                    send = Task {
                        do {
                            fulfil(.success(try await self.send(request, priority: priority)))
                        } catch {
                            fulfil(.failure(error))
                        }
                    }
                }
                return future.handleEvents(receiveCancel: { [send] in send?.cancel() })
            }
            .eraseToAnyPublisher()
        }
    }
#endif
