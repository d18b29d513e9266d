extension Network {
    /// Sends a request and delivers its one response as an `AsyncSequence`: the typed value, then
    /// the end of the sequence, or the send's error, unchanged.
    ///
    /// ```swift
    /// for try await users in network.responses(for: ListUsersRequest(online: true)) {
    ///     show(users)
    /// }
    /// ```
    ///
    /// It is the sequence form of ``send(_:priority:)->R.Response``, for code built on `AsyncSequence`, on every
    /// platform, Combine or not. The send starts at once, in a task of its own, and runs once however the sequence is iterated.
    /// When the consumer stops waiting (its task is cancelled, or it drops the sequence and its
    /// iterator before the end), the send is cancelled and ends with ``NetworkError/cancelled``, as
    /// cancelling an async `send` does; a cancelled consumer sees the sequence end, with no value.
    public func responses<R: Request>(
        for request: R,
        priority: RequestPriority = .normal
    ) -> AsyncThrowingStream<R.Response, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: R.Response.self)
        let send = Task {
            do {
                continuation.yield(try await self.send(request, priority: priority))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in send.cancel() }
        return stream
    }
}
