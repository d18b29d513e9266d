import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import AsyncHTTPClient
#endif

/// Sends through tinyproxy, which requires basic authentication: plain HTTP forwarded, HTTPS
/// tunnelled with `CONNECT`; the proxy's password never reaches a log line.
@Suite(
    "Interop: through an authenticating proxy",
    .enabled(if: InteropServers.current != nil, "run by scripts/interop.sh"), .timeLimit(.minutes(2)))
struct ProxyInteropTests {
    private struct Item: Decodable {
        let id: String
    }

    #if AsyncHTTPClient
        @Test("the transport's own client through the proxy its configuration names, its password shown nowhere")
        func configuredProxy() async throws {
            let servers = try requireServers()
            let ids = RequestIDs()
            let log = Log<String>()
            let authority = try TLSCertificate(
                pem: String(contentsOfFile: servers.certificateAuthorityPath, encoding: .utf8))
            let proxy = HTTPProxy(
                host: "127.0.0.1", port: servers.proxyPort, username: servers.proxyUser, password: servers.proxyPassword
            )
            let configuration = AsyncHTTPClientTransport.Configuration(
                tls: TLSPolicy(trustRoots: .only([authority])), proxy: proxy)
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            var networkConfiguration = NetworkConfiguration(baseURL: servers.http, logging: true)
            networkConfiguration.logSink = LogSink { log.append($0) }
            let network = HTTPNetwork(configuration: networkConfiguration, transport: transport)
            var failure: (any Error)?
            for (index, base) in [servers.http, servers.https].enumerated() {
                do {
                    let response = try await network.send(
                        NetworkRequest(
                            url: base.appendingPathComponent("items"),
                            queryItems: [URLQueryItem(name: "id", value: ids.id(index))]))
                    #expect(try JSONDecoder().decode(Item.self, from: response.body).id == ids.id(index))
                } catch {
                    failure = error
                }
            }
            try await transport.shutdown()
            #expect(failure == nil, "\(String(describing: failure))")
            let proxyLog = try servers.proxyLog()
            #expect(proxyLog.contains("CONNECT 127.0.0.1:\(servers.httpPort)"))
            #expect(proxyLog.contains("CONNECT localhost:\(servers.httpsPort)"))
            var dumped = ""
            dump(configuration, to: &dumped)
            let shown = log.all + [String(describing: proxy), String(reflecting: proxy), dumped]
            #expect(shown.count > 3)
            for text in shown {
                #expect(!text.contains(servers.proxyPassword), "\(text)")
            }
        }

        @Test("AsyncHTTPClientTransport over HTTP and CONNECT, with the proxy's credential in no log line")
        func asyncHTTPClient() async throws {
            let servers = try requireServers()
            let ids = RequestIDs()
            let log = Log<String>()
            try await withInteropClient(configure: {
                $0.proxy = .server(
                    host: "127.0.0.1", port: servers.proxyPort,
                    authorization: .basic(username: servers.proxyUser, password: servers.proxyPassword))
            }) { client in
                var configuration = NetworkConfiguration(baseURL: servers.http, logging: true)
                configuration.logSink = LogSink { log.append($0) }
                let network = HTTPNetwork(
                    configuration: configuration, transport: AsyncHTTPClientTransport(client: client))
                for (index, base) in [servers.http, servers.https].enumerated() {
                    let response = try await network.send(
                        NetworkRequest(
                            url: base.appendingPathComponent("items"),
                            queryItems: [URLQueryItem(name: "id", value: ids.id(index))]))
                    #expect(try JSONDecoder().decode(Item.self, from: response.body).id == ids.id(index))
                }
            }
            // async-http-client tunnels every request through the proxy with `CONNECT`, to nginx's
            // plain port as to its TLS port, and nginx saw both requests arrive.
            let proxyLog = try servers.proxyLog()
            #expect(proxyLog.contains("CONNECT 127.0.0.1:\(servers.httpPort)"))
            #expect(proxyLog.contains("CONNECT localhost:\(servers.httpsPort)"))
            // nginx logs a request once its answer is written, a moment after the client has it.
            try await waitUntil(timeout: .seconds(10)) {
                ((try? servers.accessLog()).map { ids.entries(in: $0).count } ?? 0) == 2
            }
            #expect(!log.all.isEmpty)
            for line in log.all {
                #expect(!line.contains(servers.proxyPassword))
            }
        }
    #endif

    #if canImport(FoundationNetworking)
        @Test("FoundationNetworking ignores a session's connectionProxyDictionary: the request goes direct")
        func urlSessionIgnoresProxyDictionary() async throws {
            let servers = try requireServers()
            let ids = RequestIDs()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.connectionProxyDictionary = [
                "HTTPEnable": 1, "HTTPProxy": "127.0.0.1", "HTTPPort": servers.proxyPort,
            ]
            let transport = URLSessionTransport(configuration: configuration)
            defer { transport.invalidate() }
            let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: servers.http), transport: transport)
            let response = try await network.send(
                NetworkRequest(
                    url: servers.http.appendingPathComponent("items"),
                    queryItems: [URLQueryItem(name: "id", value: ids.id(0))]))
            // Answered, though the proxy would have refused a request without its credential.
            #expect(response.statusCode == 200)
            #expect(!(try servers.proxyLog()).contains(ids.id(0)))
        }
    #endif
}
