#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix

    /// Sends through swift-server's async-http-client (SwiftNIO) instead of `URLSession`: on Linux
    /// several times the throughput of FoundationNetworking, and everything `HTTPClient` can be
    /// configured for (TLS, proxies, connection pooling) through a client of your own.
    ///
    /// Available with the package trait `AsyncHTTPClient`. Either the transport creates a client it
    /// owns, with ``init(configuration:)``, or you pass one you own with ``init(client:)``:
    ///
    /// - An owned client runs on SwiftNIO's shared event loops (`MultiThreadedEventLoopGroup.singleton`:
    ///   POSIX sockets and BoringSSL on every platform), never follows redirects (the
    ///   library applies its ``RedirectPolicy`` itself) and decompresses gzip and deflate bodies. Call
    ///   ``shutdown()`` when you are done with it. If the last copy of the transport goes away
    ///   without that call, the client is shut down in the background: async-http-client stops a
    ///   debug build when a client that was not shut down is released, and the transport keeps that
    ///   from ever happening.
    /// - An owned client also has async-http-client's own tracing off: it would record every URL
    ///   unredacted. The library's `Tracing` trait traces each attempt instead.
    /// - A client you pass in is never shut down by the transport. Create it with
    ///   `redirectConfiguration: .disallow`: a client that follows redirects itself bypasses the
    ///   library's ``RedirectPolicy`` (its credential stripping across origins among it), so the
    ///   transport fails such a send with ``NetworkError/invalidResponse`` rather than return the
    ///   redirected response as if nothing had happened. Set its `configuration.tracing.tracer` to
    ///   `nil` as well; see ``init(client:)``. Give it `MultiThreadedEventLoopGroup.singleton`
    ///   (NIOPosix) rather than `HTTPClient.defaultEventLoopGroup`, which on Apple platforms is
    ///   Network.framework's, which the transport is neither written nor tested for (its TLS
    ///   policy and the names it gives failures are those of SwiftNIO's sockets).
    ///
    /// Failures are reported as the same ``NetworkError`` cases the `URLSession` transport uses:
    /// `.transport(URLError)` with `.cannotConnectToHost`, `.timedOut`, `.secureConnectionFailed`
    /// (a failed TLS handshake), `.networkConnectionLost` (also for a body shorter than its
    /// `Content-Length`), `.cannotDecodeContentData` (a broken compressed body, or one past
    /// ``Configuration/maximumDecompressionRatio``), `.badServerResponse` (an unparsable
    /// response), `.unknown`; ``NetworkError/cancelled``;
    /// ``NetworkError/invalidRequest(reason:)`` for a request it cannot send; and
    /// ``NetworkError/invalidated`` after ``shutdown()``. No description carries the URL, a header
    /// or a body.
    public struct AsyncHTTPClientTransport: HTTPTransport {
        /// The client every send goes through.
        public let client: HTTPClient
        /// The owner of a client this transport created; `nil` for a client passed in. Every copy
        /// of the transport, and every response body still being read, holds it, so the client
        /// lives exactly as long as something can still use it.
        let owner: OwnedHTTPClient?
        /// Why every send fails at once, when the transport was configured with what it cannot
        /// apply (a pin, or a TLS policy whose certificates or key cannot be read).
        let refusal: NetworkError?

        /// A transport over `client`, which stays yours: the transport never shuts it down.
        ///
        /// The client must not follow redirects (`redirectConfiguration: .disallow`); the library
        /// follows them itself, by its ``RedirectPolicy``.
        ///
        /// Turn the client's own tracing off too (`configuration.tracing.tracer = nil` before you
        /// create it). async-http-client otherwise takes the process's bootstrapped tracer, even
        /// when this package's `Tracing` trait is off, and gives every request a span of its own
        /// whose `url.full` and `url.query` attributes carry the URL unredacted (an access token
        /// or a signature in the query, in clear), outside the caller's trace, and a second trace
        /// context header beside the one the library injects. The library cannot change a client
        /// it did not create; ``init(configuration:)`` creates one with tracing off.
        public init(client: HTTPClient) {
            self.client = client
            self.owner = nil
            self.refusal = nil
        }

        /// A transport over a client of its own, configured by `configuration`, on SwiftNIO's
        /// shared event loops (`MultiThreadedEventLoopGroup.singleton`). Call ``shutdown()`` once
        /// you no longer need it.
        public init(configuration: Configuration = Configuration()) {
            var clientConfiguration = configuration.clientConfiguration
            var refusal = configuration.tls.firstSetting(notIn: TLSPolicy.appliedByAsyncHTTPClient).map {
                NetworkError.tlsSettingUnavailable($0)
            }
            if configuration.tls != .system {
                do {
                    clientConfiguration.tlsConfiguration = try configuration.tls.clientTLSConfiguration()
                } catch {
                    refusal = refusal ?? .invalidRequest(reason: "the TLS policy's certificates or key cannot be read")
                }
            }
            // SwiftNIO's own loops, not `HTTPClient.defaultEventLoopGroup`, which on Apple platforms
            // is Network.framework's: read in async-http-client 1.37, it stops the process at a
            // client certificate, ignores extra trust roots, waits out the connect timeout on a
            // refused connection and fails with errors of its own. These loops are the same POSIX
            // sockets and BoringSSL everywhere, which the TLS policy and the error names are for.
            let client = HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
            let owner = OwnedHTTPClient(client: client)
            self.client = owner.client
            self.owner = owner
            self.refusal = refusal
        }

        /// Shuts down the client this transport created, closing its connections; sends after it
        /// fail with ``NetworkError/invalidated``. Does nothing for a client passed to
        /// ``init(client:)``, and nothing the second time.
        public func shutdown() async throws {
            try await owner?.shutdown()
        }

        /// Sends `request` and returns once the response head has arrived; see ``HTTPTransport``.
        public func send(_ request: TransportRequest) async throws -> TransportResponse {
            if let refusal { throw refusal }
            let response: HTTPClientResponse
            do {
                response = try await execute(request)
            } catch {
                // No head came: a lost connection may have carried the request to the server.
                throw NetworkError.markingMayHaveBeenSent(Self.networkError(for: error), method: request.method)
            }
            // One entry per request sent; more than one means the client followed a redirect.
            guard response.history.count <= 1 else { throw NetworkError.invalidResponse }

            let headers = Self.receivedHeaders(response.headers)
            let body = ResponseBodyChunks(
                body: response.body, limit: request.maximumResponseSize, owner: owner)
            return TransportResponse(
                statusCode: Int(response.status.code), headers: headers, url: request.url, body: Self.stream(of: body))
        }

        /// A response body as a ``ByteStream``: where task executors exist, one a download pushes
        /// to its file from a task on ``BlockingWorkExecutor`` (see
        /// ``ByteStream/init(_:pushingOn:)``), which takes each chunk where the client's event loop
        /// resumes it; without them, one it reads like any other stream.
        private static func stream(of body: ResponseBodyChunks) -> ByteStream {
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return ByteStream(body, pushingOn: BlockingWorkExecutor.shared)
            }
            return ByteStream(body)
        }

        /// Runs `request` through the client until its head arrives, sending it again when the
        /// connection the pool gave it had just been closed by the server (see
        /// ``resendsAfterClosedConnection(_:error:requestWasWritten:)``). The async interface does
        /// not say whether the head went out, so only a request that may be sent twice is resent.
        private func execute(_ request: TransportRequest) async throws -> HTTPClientResponse {
            var resends = 0
            while true {
                do {
                    // Built anew for each attempt: an attempt reads the body.
                    return try await client.execute(
                        try Self.clientRequest(for: request, on: client), deadline: Self.backstopDeadline(of: request))
                } catch {
                    guard resends < Self.maximumResends,
                        Self.resendsAfterClosedConnection(request, error: error, requestWasWritten: true)
                    else { throw error }
                    resends += 1
                }
            }
        }

        /// The client's own deadline for `request`: only a backstop a second past the request's
        /// timeout, since the library ends the exchange at the deadline itself, and its
        /// `NetworkError.timedOut` must win the race, not the client's own timeout error.
        static func backstopDeadline(of request: TransportRequest) -> NIODeadline {
            NIODeadline.after(request.timeout.map { $0 + .seconds(1) })
        }
    }
#endif
