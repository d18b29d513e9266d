import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("RetryPolicy")
struct RetryPolicyTests {
    private func quickPolicy(attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maximumAttempts: attempts, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(5))
    }

    @Test("back-off doubles, is capped, and jitter only shortens it")
    func backOff() {
        let noJitter = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0)
        #expect(noJitter.delay(after: 1, response: nil) == .milliseconds(100))
        #expect(noJitter.delay(after: 2, response: nil) == .milliseconds(200))
        #expect(noJitter.delay(after: 3, response: nil) == .milliseconds(400))
        #expect(noJitter.delay(after: 10, response: nil) == .seconds(1))

        let fullJitter = RetryPolicy(
            baseDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 1, randomUnit: { 0.25 })
        #expect(fullJitter.delay(after: 1, response: nil) == .milliseconds(75))
    }

    @Test("every attempt number gives a delay within 0...maximumDelay, growing until the cap, without trapping")
    func everyAttempt() {
        for jitter in [0.0, 0.5] {
            let policy = RetryPolicy(jitter: jitter, randomUnit: { 1 })
            var previous = Duration.zero
            for attempt in 0...10_000 {
                let delay = policy.delay(after: attempt, response: nil)
                #expect(delay >= .zero && delay <= .seconds(30), "attempt \(attempt)")
                #expect(delay >= previous, "attempt \(attempt)")
                previous = delay
            }
            #expect(previous == .seconds(30) * (1 - jitter))
            #expect(policy.delay(after: .max, response: nil) == .seconds(30) * (1 - jitter))
            #expect(policy.delay(after: .min, response: nil) == .milliseconds(500) * (1 - jitter))
        }
    }

    @Test(
        "extreme and invalid settings are clamped as documented, never trap",
        arguments: [
            // (base, maximum, multiplier, jitter, random unit, expected delay after attempt 3)
            (Duration.seconds(Int64.max), Duration.seconds(30), 2.0, 0.0, 0.0, Duration.seconds(30)),
            (.seconds(Int64.max), .seconds(Int64.max), 2.0, 0.0, 0.0, .seconds(Int64.max)),
            (.zero, .seconds(30), 2.0, 0.5, 0.5, .zero),
            (.seconds(10), .seconds(1), 2.0, 0.0, 0.0, .seconds(1)),
            (.seconds(1), .zero, 2.0, 0.0, 0.0, .zero),
            (.seconds(-5), .seconds(30), 2.0, 0.0, 0.0, .zero),
            (.seconds(1), .seconds(-30), 2.0, 0.0, 0.0, .zero),
            (.seconds(1), .seconds(30), -2.0, 0.0, 0.0, .seconds(1)),
            (.seconds(1), .seconds(30), 0.5, 0.0, 0.0, .seconds(1)),
            (.seconds(1), .seconds(30), .nan, 0.0, 0.0, .seconds(1)),
            (.seconds(1), .seconds(30), .infinity, 0.0, 0.0, .seconds(30)),
            (.seconds(1), .seconds(30), 1e308, 0.0, 0.0, .seconds(30)),
            (.seconds(1), .seconds(30), 2.0, .nan, 0.5, .seconds(4)),
            (.seconds(1), .seconds(30), 2.0, -1.0, 0.5, .seconds(4)),
            (.seconds(1), .seconds(30), 2.0, 5.0, 0.5, .seconds(2)),
            (.seconds(1), .seconds(30), 2.0, 1.0, .nan, .seconds(4)),
            (.seconds(1), .seconds(30), 2.0, 1.0, -3.0, .seconds(4)),
            (.seconds(1), .seconds(30), 2.0, 1.0, .infinity, .zero),
        ])
    func extremeSettings(
        base: Duration, maximum: Duration, multiplier: Double, jitter: Double, random: Double, expected: Duration
    ) {
        let policy = RetryPolicy(
            baseDelay: base, maximumDelay: maximum, multiplier: multiplier, jitter: jitter, randomUnit: { random })
        #expect(policy.delay(after: 3, response: nil) == expected)
        for attempt in [0, 1, 2, 100, 10_000, .max] {
            let delay = policy.delay(after: attempt, response: nil)
            #expect(delay >= .zero && delay <= max(maximum, .zero), "attempt \(attempt)")
        }
    }

    @Test("fewer than one attempt means no retry, not a crash")
    func noAttempts() {
        let unavailable = NetworkError.unacceptableStatusCode(NetworkResponse(statusCode: 503))
        for attempts in [0, -1, Int.min] {
            let policy = RetryPolicy(maximumAttempts: attempts)
            #expect(!policy.shouldRetry(NetworkRequest(url: testBaseURL), after: unavailable, attempt: 1))
        }
    }

    @Test("a huge or far-future Retry-After is capped by the maximum delay; a negative one means now")
    func hugeRetryAfter() {
        let policy = RetryPolicy(maximumDelay: .seconds(10))
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        for value in [
            "9223372036854775807", "99999999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT",
        ] {
            let response = NetworkResponse(statusCode: 503, headers: ["Retry-After": value])
            #expect(policy.delay(after: 1, response: response, now: now) == .seconds(10), "\(value)")
        }
        let past = NetworkResponse(statusCode: 503, headers: ["Retry-After": "Sun, 09 Sep 2001 01:46:35 GMT"])
        #expect(policy.delay(after: 1, response: past, now: now) == .zero)
        let negative = NetworkResponse(statusCode: 503, headers: ["Retry-After": "-5"])
        #expect(policy.delay(after: 1, response: negative, now: now) == .zero)
        // Without a cap, the longest delay read is about 31 years, rather than an overflow.
        let unlimited = RetryPolicy(maximumDelay: .seconds(Int64.max))
        let farFuture = NetworkResponse(statusCode: 503, headers: ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"])
        #expect(unlimited.delay(after: 1, response: farFuture, now: now) == .seconds(1_000_000_000))
        let digits = NetworkResponse(statusCode: 503, headers: ["Retry-After": "99999999999999999999999"])
        #expect(unlimited.delay(after: 1, response: digits, now: now) == .seconds(1_000_000_000))
    }

    @Test("Retry-After in seconds and as an HTTP date is honoured, capped by the maximum delay")
    func retryAfter() {
        let policy = RetryPolicy(maximumDelay: .seconds(10))
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(
            policy.delay(after: 1, response: NetworkResponse(statusCode: 503, headers: ["Retry-After": "3"]), now: now)
                == .seconds(3))
        #expect(
            policy.delay(
                after: 1, response: NetworkResponse(statusCode: 503, headers: ["Retry-After": "120"]), now: now)
                == .seconds(10))
        // 2001-09-09 01:46:40 GMT is `now`; five seconds later:
        let date = NetworkResponse(statusCode: 429, headers: ["retry-after": "Sun, 09 Sep 2001 01:46:45 GMT"])
        #expect(policy.delay(after: 1, response: date, now: now) == .seconds(5))
    }

    @Test("only retryable statuses, errors and idempotent methods are retried")
    func whatIsRetried() {
        let policy = RetryPolicy()
        let get = NetworkRequest(url: testBaseURL)
        let post = NetworkRequest(method: .post, url: testBaseURL)
        var optedInPost = post
        optedInPost.customProperties[RetryableRequest.self] = true

        let unavailable = NetworkError.unacceptableStatusCode(NetworkResponse(statusCode: 503))
        #expect(policy.shouldRetry(get, after: unavailable, attempt: 1))
        #expect(!policy.shouldRetry(get, after: unavailable, attempt: 3))
        #expect(!policy.shouldRetry(post, after: unavailable, attempt: 1))
        #expect(policy.shouldRetry(optedInPost, after: unavailable, attempt: 1))
        #expect(
            !policy.shouldRetry(
                get, after: NetworkError.unacceptableStatusCode(NetworkResponse(statusCode: 404)), attempt: 1))
        #expect(policy.shouldRetry(get, after: NetworkError.transport(URLError(.networkConnectionLost)), attempt: 1))
        #expect(policy.shouldRetry(get, after: NetworkError.transport(URLError(.cannotFindHost)), attempt: 1))
        #expect(!policy.shouldRetry(get, after: NetworkError.transport(URLError(.badURL)), attempt: 1))
        #expect(policy.shouldRetry(get, after: NetworkError.timedOut(after: .seconds(1)), attempt: 1))
        #expect(!policy.shouldRetry(get, after: MarkerError(id: 1), attempt: 1))
    }

    @Test("a 503 then a 200 succeeds, and will-begin runs for each attempt")
    func retriesThenSucceeds() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")]))
        session.stub(with: [MockResponse(statusCode: 503), MockResponse.failure(.networkConnectionLost)])
        let network = makeNetwork(session: session) { $0.retryPolicy = quickPolicy() }
        let willBegin = Counter()
        network.add(
            action: WillBegin { request in
                willBegin.increment()
                return request
            })

        let users = try await network.send(ListUsers())

        #expect(users.count == 1)
        #expect(session.recordedRequests.count == 3)
        #expect(willBegin.count == 3)
    }

    @Test("when attempts run out the error says how many were made and carries the last one")
    func exhausted() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503, jsonObject: ["error": "down"]))
        let network = makeNetwork(session: session) { $0.retryPolicy = quickPolicy(attempts: 4) }

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected failure")
        } catch NetworkError.retriesExhausted(let attempts, let lastError) {
            #expect(attempts == 4)
            #expect((lastError as? NetworkError)?.statusCode == 503)
        }
        #expect(session.recordedRequests.count == 4)
    }

    @Test("a failure the policy does not retry, after a retry, reaches the caller as it is")
    func nonRetryableAfterRetry() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 404))
        session.stub(with: [MockResponse(statusCode: 503)])
        let network = makeNetwork(session: session) { $0.retryPolicy = quickPolicy() }

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a failure")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 404)
        }
        #expect(session.recordedRequests.count == 2)
    }

    @Test("a POST is not retried unless it opts in")
    func postNotRetried() async throws {
        struct Create: Request {
            typealias Response = Void
            let optIn: Bool
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                var request = NetworkRequest(method: .post, url: baseURL, body: .text("x"))
                if optIn { request.customProperties[RetryableRequest.self] = true }
                return request
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let network = makeNetwork(session: session) { $0.retryPolicy = quickPolicy() }

        await #expect(throws: NetworkError.self) { try await network.send(Create(optIn: false)) }
        #expect(session.recordedRequests.count == 1)
        await #expect(throws: NetworkError.self) { try await network.send(Create(optIn: true)) }
        #expect(session.recordedRequests.count == 4)
    }

    @Test("cancelling during a back-off ends the send at once")
    func cancelDuringBackOff() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 503))
        let network = makeNetwork(session: session) {
            $0.retryPolicy = RetryPolicy(baseDelay: longDelay, maximumDelay: longDelay)
        }
        let task = Task { try await network.send(ListUsers()) }
        try await waitUntil { session.recordedRequests.count == 1 }
        try await Task.sleep(for: .milliseconds(20))
        let start = ContinuousClock.now
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("expected cancellation")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true)
        }
        #expect(ContinuousClock.now - start < promptBound, "a long back-off must not be waited out")
    }
}
