import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cookies through real networks on real sockets, over every transport.
@Suite("Network cookies: one jar per network, the request's own Cookie header kept")
struct NetworkCookieTests {
    /// A server whose `/login/NAME` sets `sid=SC-NAME`, whose `/hop` redirects to `/echo` setting
    /// `hop=1` on the way, and whose every answer echoes the `Cookie` header it received.
    private func cookieServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let echoed = Data((request.header("Cookie") ?? "").utf8)
            if request.path.hasPrefix("/login/") {
                let name = request.path.dropFirst("/login/".count)
                return .response(status: 200, headers: ["Set-Cookie": "sid=SC-\(name); Path=/"], body: echoed)
            }
            if request.path == "/hop" {
                return .response(status: 302, headers: ["Location": "/echo", "Set-Cookie": "hop=1; Path=/"])
            }
            return .response(status: 200, body: echoed)
        }
    }

    private func cookieSeen(
        _ path: String, by network: URLSessionNetwork, on server: LoopbackHTTPServer, cookie: String? = nil
    )
        async throws -> String
    {
        var request = NetworkRequest(url: server.baseURL.appendingPathComponent(path))
        if let cookie { request.headers["Cookie"] = cookie }
        return String(decoding: try await network.send(request).body, as: UTF8.self)
    }

    @Test("two networks over one transport never see each other's cookies", arguments: TransportKind.allCases)
    func separateJars(_ kind: TransportKind) async throws {
        let server = try cookieServer()
        defer { server.stop() }
        try await kind.withTransport { transport in
            let alice = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            let bob = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            _ = try await cookieSeen("login/alice", by: alice, on: server)
            #expect(try await cookieSeen("echo", by: alice, on: server) == "sid=SC-alice")
            #expect(try await cookieSeen("echo", by: bob, on: server) == "")
            #expect(try await cookieSeen("echo", by: bob, on: server, cookie: "mine=bob") == "mine=bob")
            #expect(
                try await cookieSeen("echo", by: alice, on: server, cookie: "mine=alice") == "mine=alice; sid=SC-alice")
        }
    }

    @Test("networks made with the default transport keep their cookies apart")
    func defaultTransport() async throws {
        let server = try cookieServer()
        defer { server.stop() }
        try await withTwoUsersDefaultNetworks(baseURL: server.baseURL) { alice, bob async throws in
            _ = try await cookieSeen("login/alice", by: alice, on: server)
            #expect(try await cookieSeen("echo", by: alice, on: server) == "sid=SC-alice")
            #expect(try await cookieSeen("echo", by: bob, on: server) == "")
            #expect(try await cookieSeen("echo", by: bob, on: server, cookie: "mine=bob") == "mine=bob")
        }
        // Nothing reached the process's shared jar, which a plain URLSession would send. (Only
        // this test's cookie is looked for: cookies ignore the port, so the shared jar may hold
        // one that a parallel test of `.system` storage put there for 127.0.0.1.)
        let shared = HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? []
        #expect(!shared.contains { $0.value == "SC-alice" }, "\(shared.map(\.name))")
    }

    @Test("system storage shares HTTPCookieStorage.shared between networks, as a plain URLSession does")
    func systemStorage() async throws {
        let server = try cookieServer()
        defer { server.stop() }
        var configuration = NetworkConfiguration(baseURL: server.baseURL)
        configuration.cookieStorage = .system
        let first = URLSessionNetwork(configuration: configuration)
        let second = URLSessionNetwork(configuration: configuration)
        defer {
            first.invalidate()
            second.invalidate()
            for cookie in HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? [] {
                HTTPCookieStorage.shared.deleteCookie(cookie)
            }
        }
        _ = try await cookieSeen("login/erin", by: first, on: server)
        #expect(try await cookieSeen("echo", by: second, on: server) == "sid=SC-erin")
        #expect(HTTPCookieStorage.shared.cookies(for: server.baseURL)?.map(\.value) == ["SC-erin"])
    }

    @Test("a cookie set on a redirect is sent on the next hop", arguments: TransportKind.allCases)
    func redirectHop(_ kind: TransportKind) async throws {
        let server = try cookieServer()
        defer { server.stop() }
        let seen = try await kind.withNetwork(baseURL: server.baseURL) { network in
            try await cookieSeen("hop", by: network, on: server)
        }
        #expect(seen == "hop=1")
    }

    @Test(
        "a shared jar is shared, and disabled storage sends only the request's own cookie",
        arguments: TransportKind.allCases)
    func sharedAndDisabled(_ kind: TransportKind) async throws {
        let server = try cookieServer()
        defer { server.stop() }
        let jar = CookieJar()
        try await kind.withTransport { transport in
            var shared = NetworkConfiguration(baseURL: server.baseURL)
            shared.cookieStorage = .jar(jar)
            var disabled = NetworkConfiguration(baseURL: server.baseURL)
            disabled.cookieStorage = .disabled
            let first = URLSessionNetwork(configuration: shared, transport: transport)
            let second = URLSessionNetwork(configuration: shared, transport: transport)
            let none = URLSessionNetwork(configuration: disabled, transport: transport)
            _ = try await cookieSeen("login/carol", by: first, on: server)
            #expect(try await cookieSeen("echo", by: second, on: server) == "sid=SC-carol")
            _ = try await cookieSeen("login/dave", by: none, on: server)
            #expect(try await cookieSeen("echo", by: none, on: server) == "")
            #expect(try await cookieSeen("echo", by: none, on: server, cookie: "own=1") == "own=1")
            #expect(jar.count == 1)
        }
    }
}

/// A cookie the jar holds identifies the user: without a partition, the answer is not stored.
@Suite("Network cookies and response storage")
struct NetworkCookieStorageTests {
    @Test("a request the network's jar has a cookie for is neither answered from nor kept in the store")
    func cookieIsACredential() async throws {
        let server = try LoopbackHTTPServer { request in
            if request.path == "/login" {
                return .response(status: 200, headers: ["Set-Cookie": "sid=SC-alice; Path=/"])
            }
            let users = request.header("Cookie") == nil ? StorageFixtures.bo : StorageFixtures.ada
            return .response(
                status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=300"],
                body: StorageFixtures.json(users))
        }
        defer { server.stop() }
        let store = InMemoryResponseStore()
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
        defer { network.invalidate() }

        // Before any cookie, the public answer is stored and served.
        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        let stored = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        #expect(stored.source == .store)
        #expect(stored.value == StorageFixtures.bo)

        _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("login")))
        let signedIn = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        #expect(signedIn.source == .network)
        #expect(signedIn.value == StorageFixtures.ada)
        // The signed-in answer did not replace the public entry.
        let other = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
        defer { other.invalidate() }
        let anonymous = try await other.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        #expect(anonymous.value == StorageFixtures.bo)
    }
}
