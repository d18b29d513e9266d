import ECNetworking
import Foundation
import TestSupport
import Testing

/// What nginx does to bodies and state: gzip, which the transports decode with the size limit
/// counted after decoding, and cookies, which go back only where they belong.
@Suite(
    "Interop: gzip and cookies",
    .enabled(if: InteropServers.current != nil, "run by scripts/interop.sh"), .timeLimit(.minutes(2)))
struct ContentInteropTests {
    private var largeJSONSize: Int {
        get throws {
            let path = try requireServers().directory.appendingPathComponent("www/large.json").path
            return try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
    }

    @Test("a gzip body is decoded whole, and the size limit counts decoded bytes", arguments: InteropTransport.allCases)
    func gzip(_ transport: InteropTransport) async throws {
        let servers = try requireServers()
        let size = try largeJSONSize
        let url = servers.http.appendingPathComponent("large.json")
        try await transport.withNetwork(baseURL: servers.http) { network in
            let response = try await network.send(NetworkRequest(url: url))
            #expect(response.body.count == size)
            #expect(response.headers["Content-Encoding"] == nil || response.body.first == UInt8(ascii: "{"))
        }
        // nginx sends about a hundredth of it; a limit of half the decoded size must still stop it.
        try await transport.withNetwork(baseURL: servers.http, configure: { $0.maximumResponseSize = size / 2 }) {
            network in
            do {
                _ = try await network.send(NetworkRequest(url: url))
                Issue.record("a body twice the limit once decoded was accepted")
            } catch NetworkError.responseTooLarge(let limit) {
                #expect(limit == size / 2)
            }
        }
    }

    private struct CookieEcho: Decodable {
        let cookie: String
    }

    @Test("a cookie nginx sets goes back on its path and host only", arguments: InteropTransport.allCases)
    func cookies(_ transport: InteropTransport) async throws {
        let servers = try requireServers()
        func cookie(at url: URL, on network: HTTPNetwork) async throws -> String {
            try JSONDecoder().decode(CookieEcho.self, from: try await network.send(NetworkRequest(url: url)).body)
                .cookie
        }
        let byName = URL(string: "http://localhost:\(servers.httpPort)")!
        let seen = try await transport.withNetwork(baseURL: servers.http) { network in
            _ = try await network.send(NetworkRequest(url: servers.http.appendingPathComponent("cookie/set")))
            return [
                try await cookie(at: servers.http.appendingPathComponent("cookie/check"), on: network),
                // Path=/cookie: not sent to /other.
                try await cookie(at: servers.http.appendingPathComponent("other/cookie"), on: network),
                // Another host, though the same server.
                try await cookie(at: byName.appendingPathComponent("cookie/check"), on: network),
            ]
        }
        #expect(seen == ["interop=chocolate", "", ""])
        // Another network has a jar of its own.
        let other = try await transport.withNetwork(baseURL: servers.http) { network in
            try await cookie(at: servers.http.appendingPathComponent("cookie/check"), on: network)
        }
        #expect(other == "")
    }
}
