internal import Hummingbird

/// `GET /slow?ms=N`: replies after waiting N milliseconds, noticing when the client gives up first.
struct SlowRoutes {
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("slow") { request, _ in
            let milliseconds = try request.integerQueryParameter("ms", in: 0...600_000, default: 1_000)
            do {
                // Watching the inbound stream is the only way Hummingbird reports a client that hung up:
                // the wait is cancelled as soon as the connection's read side closes.
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await Task.sleep(for: .milliseconds(milliseconds))
                }
            } catch let error as CancellationError {
                // The handler's own task is cancelled only when the server shuts down; a departed client
                // cancels just the wait above.
                if !Task.isCancelled {
                    await recorder.recordCancelledSlowRequest()
                }
                throw error
            }
            return try Response.json(SlowReply(waitedMilliseconds: milliseconds))
        }
    }
}
