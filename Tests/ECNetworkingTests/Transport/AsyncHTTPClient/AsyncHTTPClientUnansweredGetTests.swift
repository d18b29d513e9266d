#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// How often async-http-client sends a GET to a server that reads it and closes the connection
    /// without an answer, every time: ErrorsAndCancellation.md and Transports.md say it resends an
    /// idempotent request over new connections, since it cannot tell a fresh connection from one the
    /// pool kept, so such a server sees it up to 9 times (libcurl sends it once).
    @Suite(
        "AsyncHTTPClientTransport: a GET to a server that closes every connection unanswered", .timeLimit(.minutes(1)))
    struct AsyncHTTPClientUnansweredGetTests {
        @Test("the GET reaches the server more than once and at most 9 times, then fails with networkConnectionLost")
        func resentUpToNineTimes() async throws {
            // `.raw` with nothing to write: the server reads the request, answers nothing, and
            // closes the connection (an orderly close, not a reset).
            let server = try LoopbackHTTPServer { _ in .raw(Data()) }
            defer { server.stop() }

            let error = try await TransportKind.asyncHTTPClient.withNetwork(
                baseURL: server.baseURL,
                // The copies are the client's own: the library's retry policy sends nothing again.
                configure: { $0.retryPolicy = nil }
            ) { network in
                await networkError {
                    _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("unanswered")))
                }
            }

            #expect(error?.transportCode == .networkConnectionLost)
            let copies = server.requests
            #expect(copies.count > 1, "sent again at least once")
            #expect(copies.count <= 9, "sent \(copies.count) times")
            #expect(copies.allSatisfy { $0.method == "GET" && $0.path == "/unanswered" })
        }
    }
#endif
