import ECNetworking
import Foundation
import TestSupport
import Testing

/// A storage send's key, and whether its request carries a credential, are worked out when the send
/// starts; the network's cookie store adds its cookies only on the wire, hop by hop, and the
/// request as sent (``NetworkResponse/request``) does not show them. An answer to those cookies is
/// a user's own: without a partition it must never be stored, where anyone's send could read it.
@Suite("Storage: an answer to cookies the jar added on the wire is never stored without a partition", .serialized)
struct StorageCookiesOnTheWireTests {
    /// `/login` sets Alice's session cookie (for `cookiePath`), once the test opens `loginGate`;
    /// `/public` redirects to `/me`; any other path answers Ada's list to a request with a cookie,
    /// Bo's (the public list) to one without.
    private func server(loginGate: DispatchSemaphore? = nil, cookiePath: String = "/") throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            switch request.path {
            case "/login":
                let head =
                    "HTTP/1.1 200 OK\r\nSet-Cookie: sid=SC-alice; Path=\(cookiePath)\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n"
                guard let loginGate else { return .raw(Data(head.utf8)) }
                return .raw(Data(), gate: loginGate, rest: Data(head.utf8))
            case "/public":
                return .response(status: 302, headers: ["Location": "/me"])
            default:
                let users = request.header("Cookie") == nil ? StorageFixtures.bo : StorageFixtures.ada
                return .response(
                    status: 200, headers: ["Content-Type": "application/json"], body: StorageFixtures.json(users))
            }
        }
    }

    @Test(
        "a login that lands while a storage send waits for its slot: the answer to its cookie is not kept",
        arguments: TransportKind.allCases)
    func cookieLandingWhileQueued(kind: TransportKind) async throws {
        let loginGate = DispatchSemaphore(value: 0)
        let server = try server(loginGate: loginGate)
        defer { server.stop() }
        let store = InMemoryResponseStore()

        try await kind.withTransport { transport in
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.maximumConcurrentRequests = 1
            let alice = HTTPNetwork(configuration: configuration, transport: transport)
            defer { alice.invalidate() }

            let login = Task {
                try await alice.send(NetworkRequest(url: server.baseURL.appendingPathComponent("login")))
            }
            try await waitUntil { server.requests.count == 1 }
            // Starts, with the jar still empty, and waits behind the login for the one slot.
            let list = Task { try await alice.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh) }
            try await waitUntil { alice.activeRequestCount == 2 }
            loginGate.signal()
            _ = try await login.value
            let signedIn = try await list.value
            #expect(signedIn.value == StorageFixtures.ada)
            #expect(server.requests.last?.header("Cookie") == "sid=SC-alice")
            #expect(store.count == 0, "Alice's answer to her session cookie was stored without a partition")

            // Someone without the cookie gets the public list from the server, not Alice's.
            let other = HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            defer { other.invalidate() }
            let anonymous = try await other.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            #expect(anonymous.value == StorageFixtures.bo, "source \(anonymous.source)")
            #expect(anonymous.source == .network)
        }
    }

    @Test(
        "a redirect to where the jar has a cookie: the answer to it is not kept, though the first hop had none",
        arguments: TransportKind.allCases)
    func cookieAddedOnARedirect(kind: TransportKind) async throws {
        // The cookie is for `/me` only, so the request as built (`/public`) has none.
        let server = try server(cookiePath: "/me")
        defer { server.stop() }
        let store = InMemoryResponseStore()

        try await kind.withTransport { transport in
            let network = HTTPNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            defer { network.invalidate() }
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("login")))

            let mine = try await network.send(PublicUsersRequest(), storage: store, policy: .storedIfFresh)
            #expect(mine.value == StorageFixtures.ada, "the redirect did not carry the cookie for /me")
            #expect(store.count == 0, "the answer to the cookie the redirect carried was stored without a partition")

            // The control: a network whose jar has no cookie keeps the same public answer.
            let other = HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            defer { other.invalidate() }
            let forAnyone = try await other.send(PublicUsersRequest(), storage: store, policy: .storedIfFresh)
            #expect(forAnyone.value == StorageFixtures.bo)
            #expect(store.count == 1)
        }
    }
}

/// `GET /public`, which the server redirects to `/me`.
private struct PublicUsersRequest: StorableRequest {
    typealias Response = [User]
    var maximumStorageAge: Duration = .seconds(300)

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("public"))
    }
}
