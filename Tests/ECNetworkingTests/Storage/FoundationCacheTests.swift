import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Only the network's own storage keeps answers: Foundation's `URLCache`, which a
/// `URLSessionConfiguration` carries by default, keys by URL alone and knows nothing of storage
/// partitions, so it would hand one user's cacheable answer to another user's network.
@Suite("No answer is stored by Foundation's URL cache, whatever the session's configuration says")
struct FoundationCacheTests {
    /// A server that counts its GETs and says each answer may be kept for ten minutes.
    private func countingServer() throws -> (LoopbackHTTPServer, Counter) {
        let counter = Counter()
        let server = try LoopbackHTTPServer { request in
            let count = counter.increment()
            return .response(
                status: 200, headers: ["Cache-Control": "public, max-age=600", "Content-Type": "text/plain"],
                body: Data("\(request.header("Authorization") ?? "none") #\(count)".utf8))
        }
        return (server, counter)
    }

    /// The ways to send whose answers a cache could keep.
    enum Way: String, CaseIterable, Sendable {
        case send, stream, download
    }

    private func body(
        of url: URL, as user: String, through network: URLSessionNetwork, by way: Way = .send
    ) async throws -> String {
        var request = NetworkRequest(url: url)
        request.headers["Authorization"] = "Bearer \(user)"
        switch way {
        case .send:
            return String(decoding: try await network.send(request).body, as: UTF8.self)
        case .stream:
            return String(decoding: try await network.stream(request).collect(), as: UTF8.self)
        case .download:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try await network.download(request, to: file)
            return String(decoding: try Data(contentsOf: file), as: UTF8.self)
        }
    }

    @Test(
        "two users' networks over one transport each reach the server, every way to send",
        arguments: Way.allCases, TransportKind.allCases)
    func usersOverOneTransport(_ way: Way, _ kind: TransportKind) async throws {
        let (server, counter) = try countingServer()
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("profile")
        try await kind.withTransport { transport async throws in
            let alice = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            let bob = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            #expect(try await body(of: url, as: "alice", through: alice, by: way) == "Bearer alice #1")
            #expect(try await body(of: url, as: "bob", through: bob, by: way) == "Bearer bob #2")
            #expect(try await body(of: url, as: "alice", through: alice, by: way) == "Bearer alice #3")
        }
        #expect(counter.count == 3)
    }

    @Test("a transport made from a configuration with a URL cache stores nothing in it")
    func configurationCacheUnused() async throws {
        let (server, counter) = try countingServer()
        defer { server.stop() }
        let cache = URLCache(memoryCapacity: 4 * 1_048_576, diskCapacity: 0, diskPath: nil)
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = cache
        let transport = URLSessionTransport(configuration: configuration)
        defer { transport.invalidate() }
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
        let url = server.baseURL.appendingPathComponent("profile")
        #expect(try await body(of: url, as: "alice", through: network) == "Bearer alice #1")
        #expect(try await body(of: url, as: "bob", through: network) == "Bearer bob #2")
        #expect(counter.count == 2)
        #expect(cache.currentMemoryUsage == 0)
        // FoundationNetworking never answers from it anyway, so on Linux this is what tells.
        #expect(transport.sessionConfiguration.urlCache == nil)
        let byDefault = URLSessionTransport()
        defer { byDefault.invalidate() }
        #expect(byDefault.sessionConfiguration.urlCache == nil)
        // Nor a credential store, from which a URLSession answers a 401 itself on Apple platforms.
        #expect(transport.sessionConfiguration.urlCredentialStorage == nil)
        #expect(byDefault.sessionConfiguration.urlCredentialStorage == nil)
        // The caller's configuration object is left as it was.
        #expect(configuration.urlCache === cache)
    }

    @Test("networks made with the default transport each reach the server")
    func defaultTransport() async throws {
        let (server, counter) = try countingServer()
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("profile")
        try await withTwoUsersDefaultNetworks(baseURL: server.baseURL) { alice, bob async throws in
            #expect(try await body(of: url, as: "alice", through: alice) == "Bearer alice #1")
            #expect(try await body(of: url, as: "bob", through: bob) == "Bearer bob #2")
        }
        #expect(counter.count == 2)
    }
}
