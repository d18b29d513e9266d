import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// The same exchanges through the library over every transport, on a real socket: what the
/// library documents must not depend on which transport carries it.
@Suite("Transport conformance: exchanges", .timeLimit(.minutes(2)))
struct TransportConformanceTests {
    private func request(
        _ path: String, on server: LoopbackHTTPServer, method: HTTPMethod = .get, headers: HTTPHeaders = [:]
    ) -> NetworkRequest {
        NetworkRequest(headers: headers, method: method, url: server.baseURL.appendingPathComponent(path))
    }

    @Test("status, headers and body", arguments: TransportKind.allCases)
    func statusHeadersAndBody(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 201, headers: ["Content-Type": "text/plain", "X-Answer": "42"], body: Data("hello".utf8))
        }
        defer { server.stop() }
        let response = try await kind.withNetwork(baseURL: server.baseURL) { network in
            try await network.send(request("hello", on: server, headers: ["X-Trace": "trace-1"]))
        }
        #expect(response.statusCode == 201)
        #expect(response.body == Data("hello".utf8))
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.headers["X-Answer"] == "42")
        #expect(server.requests.first?.header("X-Trace") == "trace-1")
    }

    @Test("a HEAD response announcing a body ends at its head", arguments: TransportKind.allCases)
    func head(_ kind: TransportKind) async throws {
        // The head announces 1,000 bytes and none follow, while the connection stays open: a
        // client that read a body for HEAD would wait for the deadline.
        let server = try LoopbackHTTPServer { _ in .stall(declaredLength: 1_000) }
        defer { server.stop() }
        let response = try await kind.withNetwork(baseURL: server.baseURL) { network in
            try await network.send(request("resource", on: server, method: .head))
        }
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "1000")
        #expect(server.requests.first?.method == "HEAD")
    }

    @Test("204 and 304 carrying Content-Length have no body to read", arguments: TransportKind.allCases)
    func statusesWithoutBody(_ kind: TransportKind) async throws {
        // Each announces 10 bytes and sends none on a connection that stays open: reading a body
        // here would hang until the deadline.
        let server = try LoopbackHTTPServer { request in
            .stall(status: request.path == "/empty" ? 204 : 304, declaredLength: 10)
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let empty = try await network.send(request("empty", on: server))
            #expect(empty.statusCode == 204)
            #expect(empty.body.isEmpty)

            var notModified = request("unchanged", on: server)
            notModified.acceptableStatusCodes = [304]
            let unchanged = try await network.send(notModified)
            #expect(unchanged.statusCode == 304)
            #expect(unchanged.body.isEmpty)
        }
        #expect(clock.now - start < promptBound)
    }

    @Test("repeated header fields are all kept, in order", arguments: TransportKind.allCases)
    func repeatedHeaders(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in
            .fields([("Set-Cookie", "first=1; Path=/"), ("X-Other", "x"), ("Set-Cookie", "second=2; Path=/")])
        }
        defer { server.stop() }
        let response = try await kind.withNetwork(baseURL: server.baseURL) { network in
            try await network.send(request("cookies", on: server))
        }
        let values = response.headers.values(for: "set-cookie")
        // Both kept, in order, on every transport.
        #expect(values.joined(separator: ", ") == "first=1; Path=/, second=2; Path=/")
        if kind.joinsRepeatedHeaderFields {
            // A true difference, documented in HTTPHeaders+HTTPURLResponse.swift: Foundation's
            // HTTPURLResponse joins repeated fields into one value before the library sees them.
            #expect(values.count == 1)
        } else {
            // async-http-client hands each field over as it came.
            #expect(values == ["first=1; Path=/", "second=2; Path=/"])
        }
    }

    @Test("a chunked body that arrives in parts is whole", arguments: TransportKind.allCases)
    func chunkedBody(_ kind: TransportKind) async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            .chunked(first: Data("one,".utf8), gate: gate, rest: [Data("two,".utf8), Data("three".utf8)])
        }
        defer {
            gate.signal()
            server.stop()
        }
        let response = try await kind.withNetwork(baseURL: server.baseURL) { network in
            // The rest goes out only once the first part was written, in a write of its own.
            let release = Task {
                try await waitUntil { !server.requests.isEmpty }
                gate.signal()
            }
            defer { release.cancel() }
            return try await network.send(request("chunked", on: server))
        }
        #expect(response.statusCode == 200)
        #expect(response.body == Data("one,two,three".utf8))
    }

    @Test("a gzip body is decoded", arguments: TransportKind.allCases)
    func gzip(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let response = try await kind.withNetwork(baseURL: server.baseURL) { network in
            try await network.send(request("compressed", on: server))
        }
        let fixture = TransportTestRoutes.compressed
        // Compared by size and content, not `==`, so a failure reports two numbers, not megabytes.
        #expect(response.body.count == fixture.decodedCount)
        #expect(response.body.allSatisfy { $0 == 0x63 })
    }

    @Test(
        "a redirect to another origin drops Authorization, Cookie and Proxy-Authorization",
        arguments: TransportKind.allCases)
    func crossOriginRedirect(_ kind: TransportKind) async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        let headers: HTTPHeaders = [
            "Authorization": "Bearer secret", "Cookie": "session=secret",
            "Proxy-Authorization": "Basic secret", "X-Trace": "trace-1",
        ]
        let response = try await kind.withNetwork(baseURL: origin.baseURL) { network in
            try await network.send(request("cross", on: origin, headers: headers))
        }
        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello".utf8))
        #expect(response.url?.port == target.port)
        // The first hop, on the origin the credentials were meant for, carried them.
        #expect(origin.requests.first?.header("Authorization") == "Bearer secret")
        let forwarded = try #require(target.requests.first)
        expectCredentialsRemoved(from: forwarded)
    }

    @Test("a redirect loop fails with tooManyRedirects", arguments: TransportKind.allCases)
    func redirectLoop(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request("loop", on: server)) }
        }
        guard case .tooManyRedirects(let limit)? = error else {
            Issue.record("expected tooManyRedirects, got \(String(describing: error))")
            return
        }
        #expect(limit == RedirectPolicy.default.maximumRedirects)
        #expect(server.requests.count == limit + 1)
    }

    @Test("a redirect to file:// is refused", arguments: TransportKind.allCases)
    func redirectToFile(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 302, headers: ["Location": "file:///etc/passwd"]) }
        defer { server.stop() }
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request("escape", on: server)) }
        }
        guard case .redirectRefused(let scheme)? = error else {
            Issue.record("expected redirectRefused, got \(String(describing: error))")
            return
        }
        #expect(scheme == "file")
    }
}
