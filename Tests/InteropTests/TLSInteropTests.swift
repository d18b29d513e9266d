import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOSSL
#endif

/// HTTPS against nginx with a throwaway CA: HTTP/2 where the transport speaks it, the CA trusted
/// only when configured, and mutual TLS.
@Suite(
    "Interop: TLS, HTTP/2 and client certificates",
    .enabled(if: InteropServers.current != nil, "run by scripts/interop.sh"), .timeLimit(.minutes(3)))
struct TLSInteropTests {
    private struct Greeting: Decodable {
        let greeting: String
        let `protocol`: String
    }

    private func hello(_ base: URL, id: String? = nil) -> NetworkRequest {
        NetworkRequest(
            url: base.appendingPathComponent(id == nil ? "hello" : "items"),
            queryItems: id.map { [URLQueryItem(name: "id", value: $0)] } ?? [])
    }

    #if canImport(FoundationNetworking)
        @Test("URLSessionTransport on Linux refuses the throwaway CA with secureConnectionFailed")
        func urlSessionOnLinux() async throws {
            // FoundationNetworking trusts the system's roots only: no per-session trust, and
            // libcurl's bundle is fixed when it is built (SSL_CERT_FILE is not read). Its
            // failure, reported as code -1 with libcurl's message, is the typed TLS error.
            let servers = try requireServers()
            let error = try await InteropTransport.urlSession.withNetwork(baseURL: servers.https) { network in
                do {
                    _ = try await network.send(hello(servers.https))
                    return nil as URLError?
                } catch NetworkError.transport(let error) {
                    return error
                }
            }
            #expect(error?.code == .secureConnectionFailed)
        }
    #endif

    #if AsyncHTTPClient
        @Test("AsyncHTTPClientTransport negotiates HTTP/2 and runs 64 streams on one connection")
        func http2() async throws {
            let servers = try requireServers()
            let ids = RequestIDs()
            try await InteropTransport.asyncHTTPClient.withNetwork(baseURL: servers.https) { network in
                // One send first, so the connection and its protocol are settled before the burst.
                _ = try await network.send(hello(servers.https))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<64 {
                        group.addTask { _ = try await network.send(hello(servers.https, id: ids.id(index))) }
                    }
                    try await group.waitForAll()
                }
            }
            try await waitUntil(timeout: .seconds(10)) {
                ((try? servers.accessLog()).map { ids.entries(in: $0).count } ?? 0) >= 64
            }
            let entries = ids.entries(in: try servers.accessLog())
            #expect(entries.count == 64)
            #expect(entries.allSatisfy { $0.httpVersion == "HTTP/2.0" }, "\(Set(entries.map(\.httpVersion)))")
            #expect(Set(entries.map(\.connection)).count == 1, "\(Set(entries.map(\.connection)))")
        }

        @Test("a GET over TLS with the throwaway CA trusted")
        func overTLS() async throws {
            let servers = try requireServers()
            let greeting = try await InteropTransport.asyncHTTPClient.withNetwork(baseURL: servers.https) { network in
                try JSONDecoder().decode(Greeting.self, from: try await network.send(hello(servers.https)).body)
            }
            #expect(greeting.greeting == "hello")
        }

        @Test("the throwaway CA is trusted only when the client is configured with it")
        func trustOnlyWhenConfigured() async throws {
            let servers = try requireServers()
            let untrusted = try await withShutdown(of: AsyncHTTPClientTransport(), { try await $0.shutdown() }) {
                let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: servers.https), transport: $0)
                return await statusOrError { try await network.send(hello(servers.https)) }
            }
            #expect(untrusted == "transport(\(URLError.Code.secureConnectionFailed.rawValue))")
            let trusted = try await InteropTransport.asyncHTTPClient.withNetwork(baseURL: servers.https) { network in
                try await network.send(hello(servers.https)).statusCode
            }
            #expect(trusted == 200)
        }

        @Test("a TLSPolicy gives the transport's own client the CA, and a client certificate nginx verifies")
        func policy() async throws {
            let servers = try requireServers()
            let authority = try TLSCertificate(
                pem: String(contentsOfFile: servers.certificateAuthorityPath, encoding: .utf8))
            let identity = try TLSClientIdentity(
                certificateChainPEM: String(contentsOfFile: servers.clientCertificatePath, encoding: .utf8),
                privateKeyPEM: String(contentsOfFile: servers.clientKeyPath, encoding: .utf8))
            let transport = AsyncHTTPClientTransport(
                configuration: .init(tls: TLSPolicy(trustRoots: .only([authority]), clientIdentity: identity)))
            let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: servers.https), transport: transport)
            let mutual = await statusOrError { try await network.send(hello(servers.mutualTLS)) }
            let overHTTP2 = await statusOrError { try await network.send(hello(servers.https)) }
            try await transport.shutdown()
            #expect(mutual == "200")
            #expect(overHTTP2 == "200")
        }

        @Test("mutual TLS: nginx refuses a client without a certificate and accepts one the CA signed")
        func mutualTLS() async throws {
            let servers = try requireServers()
            let withoutIdentity = try await withInteropClient { client in
                let network = HTTPNetwork(
                    configuration: NetworkConfiguration(baseURL: servers.mutualTLS),
                    transport: AsyncHTTPClientTransport(client: client))
                return await statusOrError { try await network.send(hello(servers.mutualTLS)) }
            }
            // nginx finishes the handshake and answers 400 "No required SSL certificate was sent".
            #expect(withoutIdentity == "400")
            let withIdentity = try await withInteropClient(configure: { configuration in
                configuration.tlsConfiguration?.certificateChain = try NIOSSLCertificate.fromPEMFile(
                    servers.clientCertificatePath
                ).map { .certificate($0) }
                configuration.tlsConfiguration?.privateKey = .privateKey(
                    try NIOSSLPrivateKey(file: servers.clientKeyPath, format: .pem))
            }) { client in
                let network = HTTPNetwork(
                    configuration: NetworkConfiguration(baseURL: servers.mutualTLS),
                    transport: AsyncHTTPClientTransport(client: client))
                return await statusOrError { try await network.send(hello(servers.mutualTLS)) }
            }
            #expect(withIdentity == "200")
        }
    #endif

    /// The status code, a transport error's code, or the error, as text, so one comparison shows
    /// any of them.
    private func statusOrError(_ send: () async throws -> NetworkResponse) async -> String {
        do {
            return String(try await send().statusCode)
        } catch NetworkError.unacceptableStatusCode(let response) {
            return String(response.statusCode)
        } catch NetworkError.transport(let error) {
            return "transport(\(error.code.rawValue))"
        } catch {
            return "\(error)"
        }
    }
}
