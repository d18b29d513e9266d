#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// `AsyncHTTPClientTransport(configuration:)` applies a ``TLSPolicy``'s roots of trust and
    /// minimum version to real TLS handshakes (`openssl s_server`), and refuses pins before
    /// connecting.
    @Suite("AsyncHTTPClientTransport: TLS policy", .timeLimit(.minutes(1)))
    struct AsyncHTTPClientTLSPolicyTests {
        /// Sends one GET to `server` through a transport with `policy`; `s_server` serves one
        /// connection at a time, so the request asks for its connection to be closed.
        private func send(to server: OpenSSLTestServer, with policy: TLSPolicy) async throws -> Result<
            Int, NetworkError
        > {
            try await withOwnedTransport(.init(tls: policy)) { transport in
                let url = URL(string: "https://localhost:\(server.port)/")!
                let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: url), transport: transport)
                do {
                    return .success(
                        try await network.send(NetworkRequest(headers: ["Connection": "close"], url: url)).statusCode)
                } catch let error as NetworkError {
                    return .failure(error)
                }
            }
        }

        @Test("a certificate trusted through the policy's roots, and only through them")
        func trustRoots() async throws {
            let server = try await OpenSSLTestServer.start()
            defer { server.stop() }
            let certificate = try TLSCertificate(pem: String(contentsOfFile: server.certificatePath, encoding: .utf8))
            #expect(try await send(to: server, with: TLSPolicy(trustRoots: .only([certificate]))).get() == 200)
            #expect(try await send(to: server, with: TLSPolicy(trustRoots: .systemAnd([certificate]))).get() == 200)
            guard case .failure(.transport(let error)) = try await send(to: server, with: .system) else {
                Issue.record("the system's roots trusted a throwaway certificate")
                return
            }
            #expect(error.code == .secureConnectionFailed)
        }

        @Test("a minimum of TLS 1.3 refuses a server that speaks at most TLS 1.2")
        func minimumVersion() async throws {
            let server = try await OpenSSLTestServer.start(serverArguments: ["-no_tls1_3"])
            defer { server.stop() }
            let certificate = try TLSCertificate(pem: String(contentsOfFile: server.certificatePath, encoding: .utf8))
            let refused = try await send(
                to: server, with: TLSPolicy(trustRoots: .only([certificate]), minimumVersion: .v1_3))
            guard case .failure(.transport(let error)) = refused else {
                Issue.record("expected a failed handshake, got \(refused)")
                return
            }
            #expect(error.code == .secureConnectionFailed)
            #expect(try await send(to: server, with: TLSPolicy(trustRoots: .only([certificate]))).get() == 200)
        }

        @Test("the Transports article's TLS policy: a private CA beside the system's roots, a client certificate")
        func articleSnippet() async throws {
            let server = try await OpenSSLTestServer.start()
            defer { server.stop() }
            let privateCAPEM = try String(contentsOfFile: server.certificatePath, encoding: .utf8)
            // s_server asks for no client certificate; the identity is offered all the same.
            let clientChainPEM = privateCAPEM
            let clientKeyPEM = try String(contentsOfFile: server.keyPath, encoding: .utf8)

            let policy = TLSPolicy(
                trustRoots: .systemAnd([try TLSCertificate(pem: privateCAPEM)]),
                clientIdentity: try TLSClientIdentity(certificateChainPEM: clientChainPEM, privateKeyPEM: clientKeyPEM),
                minimumVersion: .v1_2)
            let transport = AsyncHTTPClientTransport(configuration: .init(tls: policy))

            let url = URL(string: "https://localhost:\(server.port)/")!
            let status = try await withShutdown(of: transport, { try await $0.shutdown() }) { transport in
                let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: url), transport: transport)
                return try await network.send(NetworkRequest(headers: ["Connection": "close"], url: url)).statusCode
            }
            #expect(status == 200)
        }

        @Test("a pin in force is refused before connecting: async-http-client cannot check it")
        func pinsRefused() async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("ok".utf8)) }
            defer { server.stop() }
            let pinned = TLSPolicy(pins: [TLSPin(host: "127.0.0.1", sha256: ["AAAA"])])
            try await withOwnedTransport(.init(tls: pinned)) { transport in
                let network = HTTPNetwork(
                    configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
                let requests = [
                    NetworkRequest(url: server.baseURL),
                    NetworkRequest(url: server.baseURL, body: .stream(ByteStream())),
                ]
                for request in requests {
                    let error = await networkError { _ = try await network.send(request) }
                    guard case .tlsSettingUnavailable(.pins)? = error else {
                        Issue.record("expected tlsSettingUnavailable(.pins), got \(String(describing: error))")
                        continue
                    }
                }
            }
            #expect(server.acceptedConnectionCount == 0)
        }
    }
#endif
