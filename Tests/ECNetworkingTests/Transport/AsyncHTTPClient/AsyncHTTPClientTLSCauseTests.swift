#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOSSL
    import NIOPosix
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// TLS failures over AsyncHTTPClient keep what went wrong: an untrusted certificate and one
    /// that names another host are both `.secureConnectionFailed`, and their causes tell them
    /// apart without showing the host.
    @Suite("AsyncHTTPClientTransport: the cause of a TLS failure", .timeLimit(.minutes(1)))
    struct AsyncHTTPClientTLSCauseTests {
        @Test("an untrusted certificate and a hostname mismatch have different, secret-free causes")
        func causes() async throws {
            let server = try await OpenSSLTestServer.start()
            defer { server.stop() }

            // The system's roots do not trust the throwaway certificate.
            let untrusted = try await withOwnedTransport { transport in
                await networkError {
                    _ = try await transport.send(
                        TransportRequest(
                            method: .get, url: URL(string: "https://localhost:\(server.port)/")!, timeout: .seconds(20))
                    )
                }
            }
            // Trusted, but asked for by an address the certificate does not name.
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(server.certificatePath))
            var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
            configuration.tracing.tracer = nil
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            let transport = AsyncHTTPClientTransport(client: client)
            let mismatch = await networkError {
                _ = try await transport.send(
                    TransportRequest(
                        method: .get, url: URL(string: "https://127.0.0.1:\(server.port)/?token=planted")!,
                        timeout: .seconds(20)))
            }
            // The same client reaches the server by the name its certificate has. `s_server` serves
            // one connection at a time, so this one asks to be closed when answered.
            let trusted = try await transport.send(
                TransportRequest(
                    method: .get, url: URL(string: "https://localhost:\(server.port)/")!,
                    headers: ["Connection": "close"], timeout: .seconds(20)))
            #expect(trusted.statusCode == 200)
            try await client.shutdown()

            #expect(untrusted?.transportCode == .secureConnectionFailed)
            #expect(mismatch?.transportCode == .secureConnectionFailed)
            let untrustedCause = try #require(untrusted?.transportCause)
            let mismatchCause = try #require(mismatch?.transportCause)
            #expect(untrustedCause.hasPrefix("NIOSSLError.handshakeFailed"), "\(untrustedCause)")
            #expect(untrustedCause.contains("CERTIFICATE_VERIFY_FAILED"), "\(untrustedCause)")
            #expect(mismatchCause == "NIOSSLExtraError.failedToValidateHostname", "\(mismatchCause)")
            for error in [untrusted, mismatch] {
                let shown = [error?.transportCause ?? "", error?.localizedDescription ?? "", String(reflecting: error)]
                for text in shown {
                    #expect(!text.contains("127.0.0.1") && !text.contains("localhost") && !text.contains("planted"))
                    #expect(!text.contains(String(server.port)))
                }
            }
            #expect(mismatch?.localizedDescription.contains("secure connection could not be established") == true)
            #expect(mismatch?.localizedDescription.contains(mismatchCause) == true)
        }
    }
#endif
