#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTPCompression

    extension AsyncHTTPClientTransport {
        /// How the client that ``AsyncHTTPClientTransport/init(configuration:)`` creates behaves.
        ///
        /// For anything else `HTTPClient` offers, create the client yourself and pass it to
        /// ``AsyncHTTPClientTransport/init(client:)``.
        public struct Configuration: Sendable {
            /// The most connections kept open to one host; more concurrent sends to it wait for one.
            public var maximumConnectionsPerHost: Int
            /// How long opening a connection (TCP and TLS) may take.
            public var connectTimeout: Duration
            /// How long an unused connection stays open for the next send.
            public var idleConnectionTimeout: Duration
            /// The largest ratio of a compressed body's decoded size to its compressed size; past
            /// it the send fails with `.transport(URLError(.cannotDecodeContentData))`.
            ///
            /// The request's `maximumResponseSize` bounds a body as its bytes arrive, and the body is
            /// read from the socket only as fast as it is consumed; but the decompressor inflates all
            /// that one network read holds (at most 64 KiB) before anyone counts it, and deflate
            /// reaches 1,032 to 1. With the default of 250, one read yields at most 16 MiB, and a
            /// gzip bomb stops after 250 times the bytes it sent even when the request sets no size
            /// limit. Text and JSON compress 3 to 20 times; raise it for unusually repetitive
            /// bodies.
            public var maximumDecompressionRatio: Int
            /// Whether a failed connection attempt is retried, with back-off, until
            /// ``connectTimeout``. Off by default, like `URLSession`: a refused connection fails the
            /// send at once with `.cannotConnectToHost`, and the library's retry policy decides what
            /// happens next.
            public var retriesFailedConnections: Bool
            /// The roots of trust, client certificate and minimum TLS version of every connection
            /// (see ``TLSPolicy``). Pins cannot be checked: async-http-client offers no hook to see
            /// the server's chain, so with a pin in force every send fails with
            /// ``NetworkError/tlsSettingUnavailable(_:)``.
            public var tls: TLSPolicy
            /// The proxy every request goes through, in a `CONNECT` tunnel; `nil` for none.
            public var proxy: HTTPProxy?

            /// A configuration; the defaults suit most services.
            public init(
                maximumConnectionsPerHost: Int = 8,
                connectTimeout: Duration = .seconds(10),
                idleConnectionTimeout: Duration = .seconds(60),
                maximumDecompressionRatio: Int = 250,
                retriesFailedConnections: Bool = false,
                tls: TLSPolicy = .system,
                proxy: HTTPProxy? = nil
            ) {
                self.maximumConnectionsPerHost = maximumConnectionsPerHost
                self.connectTimeout = connectTimeout
                self.idleConnectionTimeout = idleConnectionTimeout
                self.maximumDecompressionRatio = maximumDecompressionRatio
                self.retriesFailedConnections = retriesFailedConnections
                self.tls = tls
                self.proxy = proxy
            }

            /// The client's configuration: redirects off, because the library follows them by its
            /// own policy; decompression on, bounded by the ratio; and async-http-client's own
            /// tracing off.
            ///
            /// That tracing takes the process's bootstrapped tracer whatever the library's traits
            /// are, and gives every request a CLIENT span of its own whose `url.full` and
            /// `url.query` carry the URL unredacted (tokens and signatures in clear), plus a second
            /// trace context header beside the library's. The library's `Tracing` trait traces
            /// each attempt itself, redacted.
            var clientConfiguration: HTTPClient.Configuration {
                var pool = HTTPClient.Configuration.ConnectionPool(
                    idleTimeout: TimeAmount(idleConnectionTimeout),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maximumConnectionsPerHost))
                pool.retryConnectionEstablishment = retriesFailedConnections
                var configuration = HTTPClient.Configuration(
                    redirectConfiguration: .disallow,
                    timeout: HTTPClient.Configuration.Timeout(connect: TimeAmount(connectTimeout)),
                    connectionPool: pool,
                    decompression: .enabled(limit: .ratio(max(1, maximumDecompressionRatio))))
                configuration.tracing.tracer = nil
                if let proxy {
                    let authorization = proxy.username.map {
                        HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                    }
                    configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
                }
                return configuration
            }
        }
    }
#endif
