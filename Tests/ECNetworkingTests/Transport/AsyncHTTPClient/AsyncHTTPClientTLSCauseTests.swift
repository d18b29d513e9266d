#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOSSL
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
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
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

    /// `openssl s_server` on a free port of 127.0.0.1, with a throwaway self-signed certificate
    /// for `localhost`, answering every request with a status page.
    final class OpenSSLTestServer: Sendable {
        let port: Int
        let certificatePath: String
        private let process: Process
        private let directory: URL

        private init(port: Int, certificatePath: String, process: Process, directory: URL) {
            self.port = port
            self.certificatePath = certificatePath
            self.process = process
            self.directory = directory
        }

        /// Makes the certificate and starts the server; the blocking work runs on a queue of its
        /// own, never on the test's cooperative threads.
        static func start() async throws -> OpenSSLTestServer {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try startBlocking() })
                }
            }
        }

        private static func startBlocking() throws -> OpenSSLTestServer {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let key = directory.appendingPathComponent("key.pem").path
            let certificate = directory.appendingPathComponent("cert.pem").path
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            make.arguments = [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "3650", "-subj", "/CN=localhost", "-addext",
                "subjectAltName=DNS:localhost",
            ]
            make.standardError = FileHandle.nullDevice
            try make.run()
            make.waitUntilExit()
            guard make.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }

            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            server.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
            let output = Pipe()
            server.standardOutput = output
            server.standardError = FileHandle.nullDevice
            try server.run()
            // "ACCEPT 127.0.0.1:PORT" once it listens, after a line or so about its parameters.
            var printed = ""
            func acceptLine() -> Substring? {
                // Complete lines only: the piece after the last newline may still be growing.
                printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first {
                    $0.hasPrefix("ACCEPT")
                }
            }
            while acceptLine() == nil {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                printed += String(decoding: chunk, as: UTF8.self)
            }
            guard let portText = acceptLine()?.split(separator: ":").last,
                let port = Int(portText.trimmingCharacters(in: .whitespaces))
            else {
                server.terminate()
                throw CocoaError(.fileReadUnknown)
            }
            return OpenSSLTestServer(port: port, certificatePath: certificate, process: server, directory: directory)
        }

        /// Kills the server: `s_server` answers `SIGTERM` only between connections. `SIGKILL`
        /// cannot be caught, and Foundation reaps the process, so nothing waits for it here: a
        /// `waitUntilExit()` would block one of the concurrency runtime's threads (two on a 2-core
        /// machine) while it polls.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            try? FileManager.default.removeItem(at: directory)
        }
    }
#endif
