internal import Hummingbird

/// `GET /flaky`: fails with `503 Service Unavailable` and `Retry-After: 1` a set number of times, then succeeds.
///
/// Attempts are counted per `?key=` so that parallel tests sharing one server each see the failures.
/// `?failures=N` overrides the configured failure count for that request; `GET /flaky/reset` forgets the counts.
struct FlakyRoutes {
    let failureCount: Int
    let counter: FlakyCounter

    func register(on router: Router<BasicRequestContext>) {
        router.get("flaky") { request, _ in
            let failures = try request.integerQueryParameter("failures", in: 0...1_000, default: failureCount)
            let attempt = await counter.nextAttempt(key: request.uri.queryParameters.get("key") ?? "")
            guard attempt > failures else {
                throw DemoServerError(
                    status: .serviceUnavailable,
                    body: APIError(
                        error: "service_unavailable",
                        message: "Attempt \(attempt) fails on purpose; \(failures) attempt(s) fail before one succeeds."
                    ),
                    headers: [.retryAfter: "1"]
                )
            }
            return try Response.json(FlakyReply(ok: true, attempt: attempt))
        }
        router.get("flaky/reset") { request, _ in
            await counter.reset(key: request.uri.queryParameters.get("key"))
            return try Response.json(["ok": true])
        }
    }
}
