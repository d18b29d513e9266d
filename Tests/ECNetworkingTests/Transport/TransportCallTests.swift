import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("TransportCall: one attempt over any HTTPTransport ends exactly once", .timeLimit(.minutes(1)))
struct TransportCallTests {
    private let clock = ContinuousClock()
    private let url = URL(string: "https://api.example.com/v1/users")!
    private let follower = RedirectFollower(policy: .default, redaction: Redaction(.default))

    private func request(timeout: Duration? = nil, limit: Int? = nil) -> TransportRequest {
        TransportRequest(
            method: .get, url: url, headers: ["Authorization": "Bearer secret"], timeout: timeout,
            maximumResponseSize: limit)
    }

    private func send(_ request: TransportRequest, through transport: any HTTPTransport) async throws
        -> NetworkResponse
    {
        try await TransportCall.send(
            request, on: TransportRoute(transport, redirects: follower), cancellation: SendCancellation.current)
    }

    @Test("the head and then the whole body make the response")
    func response() async throws {
        let transport = ScriptedTransport { _, _ in
            TransportResponse(
                statusCode: 200, headers: ["Content-Type": "text/plain"],
                body: ByteStream(
                    AsyncStream { continuation in
                        continuation.yield(Data("hel".utf8))
                        continuation.yield(Data("lo".utf8))
                        continuation.finish()
                    }))
        }

        let response = try await send(request(), through: transport)

        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello".utf8))
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.url == url)
        #expect(response.httpURLResponse == nil)
    }

    @Test("a head that arrives and a body that stalls end at the deadline with timedOut")
    func stalledBodyTimesOut() async throws {
        let transport = ScriptedTransport { _, _ in
            TransportResponse(statusCode: 200, body: ScriptedTransport.stalledBody())
        }
        let start = clock.now

        await #expect {
            _ = try await send(request(timeout: .milliseconds(300)), through: transport)
        } throws: { error in
            guard case .timedOut(let after) = error as? NetworkError else { return false }
            return after == .milliseconds(300)
        }
        let elapsed = clock.now - start
        #expect(elapsed >= .milliseconds(290))
        #expect(elapsed < promptBound)
    }

    @Test("a head that never arrives ends at the deadline with timedOut")
    func stalledHeadTimesOut() async throws {
        let transport = ScriptedTransport { _, _ in
            try await Task.sleep(for: .seconds(3_600))
            return TransportResponse(statusCode: 200)
        }
        let start = clock.now

        await #expect {
            _ = try await send(request(timeout: .milliseconds(200)), through: transport)
        } throws: { error in
            if case .timedOut = error as? NetworkError { return true }
            return false
        }
        #expect(clock.now - start >= .milliseconds(190))
    }

    @Test("cancelling the caller before the head, or after it while the body stalls, ends with cancelled")
    func cancellation() async throws {
        let heads = Counter()
        for afterHead in [false, true] {
            let transport = ScriptedTransport { _, _ in
                if !afterHead { try await Task.sleep(for: .seconds(3_600)) }
                heads.increment()
                return TransportResponse(statusCode: 200, body: ScriptedTransport.stalledBody())
            }
            let send = Task { try await self.send(request(), through: transport) }
            try await waitUntil { transport.requests.count == 1 && (!afterHead || heads.count == 1) }

            send.cancel()

            await #expect(afterHead ? "after the head" : "before the head") {
                _ = try await send.value
            } throws: { error in
                (error as? NetworkError)?.isCancellation == true
            }
        }
    }

    @Test("a send already cancelled never reaches the transport")
    func cancelledBeforeStart() async throws {
        let transport = ScriptedTransport { _, _ in TransportResponse(statusCode: 200) }
        let send = Task {
            try? await Task.sleep(for: .seconds(3_600))
            return try await self.send(request(), through: transport)
        }
        send.cancel()

        await #expect(throws: NetworkError.self) { _ = try await send.value }
        #expect(transport.requests.isEmpty)
    }

    @Test("a transport that ignores cancellation still lets the call end at once, on cancel and at the deadline")
    func ignoringTransport() async throws {
        let gate = IgnoringGate()
        defer { gate.open() }
        let transport = ScriptedTransport { _, _ in
            await gate.wait()
            return TransportResponse(statusCode: 200)
        }

        let send = Task { try await self.send(request(), through: transport) }
        try await waitUntil { gate.waiterCount == 1 }
        let start = clock.now
        send.cancel()
        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.isCancellation == true
        }
        #expect(clock.now - start < promptBound)

        await #expect {
            _ = try await self.send(request(timeout: .milliseconds(100)), through: transport)
        } throws: { error in
            if case .timedOut = error as? NetworkError { return true }
            return false
        }
        #expect(gate.waiterCount == 2, "the transport is still stuck, yet both calls ended")
    }

    @Test("cancelAll's send cancellation ends the call like the task's")
    func sendCancellation() async throws {
        let transport = ScriptedTransport { _, _ in
            try await Task.sleep(for: .seconds(3_600))
            return TransportResponse(statusCode: 200)
        }
        let cancellation = SendCancellation()
        let send = Task {
            try await cancellation.run { try await self.send(request(), through: transport) }
        }
        try await waitUntil { transport.requests.count == 1 }

        cancellation.cancel()

        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.isCancellation == true
        }
    }

    @Test("a body over the limit fails with responseTooLarge without reading the rest")
    func bodyOverLimit() async throws {
        let pulls = Counter()
        let transport = ScriptedTransport { _, _ in
            TransportResponse(statusCode: 200, body: ScriptedTransport.body(chunks: 1_000, of: 1_000, pulls: pulls))
        }

        await #expect {
            _ = try await send(request(limit: 2_500), through: transport)
        } throws: { error in
            guard case .responseTooLarge(let limit) = error as? NetworkError else { return false }
            return limit == 2_500
        }
        #expect(pulls.count == 3)
    }

    @Test("the call follows a redirect itself: the final URL answers, credentials stay on their origin")
    func followsRedirects() async throws {
        let bodyPulls = Counter()
        let transport = ScriptedTransport { request, index in
            switch index {
            case 0:
                TransportResponse(
                    statusCode: 302, headers: ["Location": "https://cdn.example.com/file"], url: request.url,
                    body: ScriptedTransport.body(chunks: 1, of: 10, pulls: bodyPulls))
            default:
                TransportResponse(statusCode: 200, url: request.url, body: ByteStream(Data("final".utf8)))
            }
        }

        let response = try await send(request(), through: transport)

        #expect(response.statusCode == 200)
        #expect(response.body == Data("final".utf8))
        #expect(response.url?.absoluteString == "https://cdn.example.com/file")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.last?.headers["Authorization"] == nil)
        #expect(bodyPulls.count == 0, "the 3xx body is let go unread")
    }

    @Test("a redirect loop stops at the policy's limit")
    func redirectLoop() async throws {
        let transport = ScriptedTransport { request, _ in
            TransportResponse(statusCode: 302, headers: ["Location": "/again"], url: request.url)
        }

        await #expect {
            _ = try await send(request(), through: transport)
        } throws: { error in
            guard case .tooManyRedirects(let limit) = error as? NetworkError else { return false }
            return limit == RedirectPolicy.default.maximumRedirects
        }
        #expect(transport.requests.count == RedirectPolicy.default.maximumRedirects + 1)
    }

    @Test(
        "racing the answer, cancellation and the deadline, the completion runs exactly once",
        arguments: ["all three", "answer and deadline", "answer and cancel"])
    func exactlyOnce(race: String) async throws {
        for _ in 0..<200 {
            let transport = ScriptedTransport { _, _ in TransportResponse(statusCode: 204) }
            let call = TransportCall(
                request(timeout: .microseconds(50)), on: TransportRoute(transport, redirects: follower))
            let completions = Counter()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { call.start { _ in completions.increment() } }
                if race != "answer and deadline" { group.addTask { call.cancel() } }
                if race != "answer and cancel" { group.addTask { call.deadlinePassed() } }
            }
            try await waitUntil { completions.count >= 1 }
            // A second completion would come from the exchange's task ending after the others.
            try await waitUntil { transport.requests.isEmpty || completions.count == 1 }
            try await Task.sleep(for: .milliseconds(1))
            #expect(completions.count == 1)
        }
    }
}
