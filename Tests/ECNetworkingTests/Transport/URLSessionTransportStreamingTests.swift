import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("URLSessionTransport as an HTTPTransport: it streams, with backpressure", .timeLimit(.minutes(1)))
struct URLSessionTransportStreamingTests {
    private let megabyte = TransportTestRoutes.megabyte

    private func request(_ path: String, on server: LoopbackHTTPServer, limit: Int? = nil) -> TransportRequest {
        TransportRequest(
            method: .get, url: server.baseURL.appendingPathComponent(path), maximumResponseSize: limit)
    }

    @Test("send returns at the head, and the first chunk arrives while the body is still coming")
    func chunksBeforeTheEnd() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        // The server sends the head and 7 of 1,000 declared bytes, then holds the connection.
        let response = try await transport.send(request("stall", on: server))
        #expect(response.statusCode == 200)
        var iterator = response.body.makeAsyncIterator()
        let first = try await iterator.next()

        #expect(first == Data("partial".utf8))
        #expect(transport.activeTaskCount == 1, "the transfer is still running")
    }

    @Test("letting go of a body before its end stops the transfer and frees the connection")
    func droppedBodyStops() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        do {
            let response = try await transport.send(request("stall", on: server))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
        }

        try await waitUntil { transport.activeTaskCount == 0 }
        try await waitUntil { server.openConnectionCount == 0 }
    }

    @Test("a body cut short of its Content-Length is an error, never a short success")
    func truncatedBody() async throws {
        let server = try TransportTestRoutes.server()
        let transport = URLSessionTransport()
        defer { transport.invalidate() }
        let response = try await transport.send(request("stall", on: server))
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("partial".utf8))

        // Closes the connection with 993 declared bytes still missing.
        server.stop()

        await #expect {
            while try await iterator.next() != nil {}
        } throws: { error in
            guard case .transport(let urlError) = error as? NetworkError else { return false }
            return urlError.code == .networkConnectionLost
        }
    }

    // FoundationNetworking cannot pause a transfer (see `URLSessionExchange`): on Linux what the
    // reader falls behind by goes to a spill file instead, which bounds memory just the same.
    @Test("a reader that falls behind keeps the buffered bytes bounded, and then gets the whole body in order")
    func backpressure() async throws {
        let size = 48 * megabyte
        let body = Self.patterned(count: size)
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: body) }
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        let response = try await transport.send(request("large", on: server))
        var iterator = response.body.makeAsyncIterator()
        var received = try await iterator.next() ?? Data()
        // The reader stalls; without backpressure the whole body would pile up in memory meanwhile.
        try await Task.sleep(for: .seconds(1))
        let bufferedWhileStalled = transport.bufferedByteCount
        var mostBuffered = bufferedWhileStalled
        while let chunk = try await iterator.next() {
            received.append(chunk)
            mostBuffered = max(mostBuffered, transport.bufferedByteCount)
        }

        #expect(received == body)
        if URLSessionExchange.suspendsForSlowReaders {
            #expect(bufferedWhileStalled > 0)
        }
        #expect(mostBuffered <= 4 * megabyte, "buffered \(mostBuffered) bytes of \(size)")
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a stalled streamed reader does not hold up the transport's other sends")
    func stalledStreamDoesNotStallOtherSends() async throws {
        let body = Self.patterned(count: 48 * megabyte)
        let server = try LoopbackHTTPServer { request in
            request.path == "/large"
                ? .response(status: 200, body: body) : .response(status: 200, body: Data("small".utf8))
        }
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL), transport: transport)

        let stream = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("large")))
        var iterator = stream.makeAsyncIterator()
        var received = try await iterator.next() ?? Data()
        // The reader stalls while the rest of the body arrives.
        try await Task.sleep(for: .milliseconds(500))
        let small = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("small")))
        #expect(String(decoding: small.body, as: UTF8.self) == "small")
        while let chunk = try await iterator.next() { received.append(chunk) }
        #expect(received == body)
    }

    /// `count` bytes that differ from their neighbours, so a chunk out of order shows.
    private static func patterned(count: Int) -> Data {
        let period = Data((0..<251).map { UInt8($0) })
        var data = Data(capacity: count + period.count)
        while data.count < count { data.append(period) }
        return data.prefix(count)
    }

    @Test("each request's own limit applies, so one transport serves networks with different limits")
    func perRequestLimit() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        let small = try await transport.send(request("exact", on: server, limit: megabyte / 2))
        await #expect {
            _ = try await small.body.collect(upTo: nil)
        } throws: { error in
            guard case .responseTooLarge(let limit) = error as? NetworkError else { return false }
            return limit == megabyte / 2
        }

        let large = try await transport.send(request("exact", on: server, limit: megabyte))
        #expect(try await large.body.collect(upTo: nil).count == megabyte)
        try await waitUntil { transport.activeTaskCount == 0 }
    }

    @Test("a 3xx is returned as it is: the transport never follows a redirect")
    func noRedirects() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        let response = try await transport.send(request("loop", on: server))

        #expect(response.statusCode == 302)
        #expect(response.headers["Location"] == "/loop")
        #expect(server.requests.count == 1)
    }

    @Test("cancelling the task that waits for the head ends the exchange with cancelled")
    func cancelBeforeHead() async throws {
        // The server holds the request, sending nothing, until the test ends.
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            release.wait()
            return .response(status: 200)
        }
        defer {
            release.signal()
            server.stop()
        }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }

        let send = Task { try await transport.send(request("held", on: server)) }
        try await waitUntil { server.requests.count == 1 }
        send.cancel()

        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.isCancellation == true
        }
        try await waitUntil { transport.activeTaskCount == 0 }
    }

    @Test("through a network made with a transport, the configuration's redirect policy and limit apply")
    func networkWithTransport() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(redirectPolicy: .never)
        defer { transport.invalidate() }
        var configuration = NetworkConfiguration(baseURL: server.baseURL)
        configuration.redirectPolicy = RedirectPolicy(maximumRedirects: 2)
        configuration.maximumResponseSize = megabyte
        let network = URLSessionNetwork(configuration: configuration, transport: transport)

        await #expect {
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("loop")))
        } throws: { error in
            guard case .tooManyRedirects(let limit) = error as? NetworkError else { return false }
            return limit == 2
        }
        #expect(server.requests.count == 3)

        await #expect {
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("big")))
        } throws: { error in
            guard case .responseTooLarge(let limit) = error as? NetworkError else { return false }
            return limit == megabyte
        }

        let hello = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("same")))
        #expect(hello.body == Data("hello".utf8))
        #expect(hello.url?.path == "/hello")
        #expect(hello.httpURLResponse?.statusCode == 200)
        network.invalidate()
        #expect(try await transport.send(request("hello", on: server)).statusCode == 200, "still the caller's")
    }
}
