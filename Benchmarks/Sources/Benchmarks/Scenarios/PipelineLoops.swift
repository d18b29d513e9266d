import ECNetworking
import Foundation

/// A loop of sequential sends through the in-memory session, timed as a whole. The loop lives in
/// the type, so the per-send cost includes no closure call or existential dispatch.
protocol PipelineLoop: Sendable {
    /// Sends `iterations` requests one after another, checking each answer.
    func run(iterations: Int) async throws
}

/// A hand-written client of the users list.
protocol UsersClient: Sendable {
    /// Sends `GET users` and decodes the list.
    func listUsers() async throws -> [User]
}

/// A hand-written client's loop: ``RawClient``, the baseline, the same `URLRequest`, session and
/// decoding as the library's; or ``GuardedRawClient``, the diagnostic row. Generic, not an
/// existential, so each is specialized and the per-send cost has no dynamic dispatch either.
struct HandWrittenLoop<Client: UsersClient>: PipelineLoop {
    /// The client, holding the headers the library's actions would add.
    let client: Client

    /// Sends through the hand-written client.
    func run(iterations: Int) async throws {
        for _ in 0..<iterations {
            try UsersFixture.check(try await client.listUsers())
        }
    }
}

extension HandWrittenLoop where Client == RawClient<InMemorySession> {
    /// The baseline, sending the headers that `actionCount` benchmark actions add.
    init(session: InMemorySession, baseURL: URL, actionCount: Int) {
        client = RawClient(
            transport: session, baseURL: baseURL, headers: BenchmarkActions.headers(forActionCount: actionCount))
    }
}

extension HandWrittenLoop where Client == GuardedRawClient<InMemorySession> {
    /// The guarded client, sending the headers that `actionCount` benchmark actions add.
    init(guardedOn session: InMemorySession, baseURL: URL, actionCount: Int) {
        client = GuardedRawClient(
            transport: session, baseURL: baseURL, headers: BenchmarkActions.headers(forActionCount: actionCount))
    }
}

/// The library: `URLSessionNetwork.send` with a typed request.
struct LibraryLoop: PipelineLoop {
    /// The network, with its actions installed.
    let network: URLSessionNetwork

    /// A network over `session` with `actionCount` benchmark actions; `adjust` changes the
    /// otherwise default configuration (logging, timeout; coalescing is off unless `adjust` turns it on).
    init(
        session: InMemorySession,
        baseURL: URL,
        actionCount: Int,
        adjust: (inout NetworkConfiguration) -> Void = { _ in }
    ) {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        adjust(&configuration)
        network = URLSessionNetwork(configuration: configuration, session: session)
        for action in BenchmarkActions.make(count: actionCount) {
            network.add(action: action)
        }
    }

    /// Sends through `URLSessionNetwork`, reusing one request value as an app would.
    func run(iterations: Int) async throws {
        let request = ListUsersRequest()
        for _ in 0..<iterations {
            try UsersFixture.check(try await network.send(request))
        }
    }
}

/// Where the in-memory scenarios send: a host that never resolves, since nothing leaves the process.
enum InMemoryEndpoint {
    /// The base URL of every in-memory request.
    static let baseURL = URL(string: "http://in-memory.invalid")!

    /// A session answering the users list for ``baseURL``.
    static func makeSession() -> InMemorySession {
        InMemorySession(url: baseURL.appendingPathComponent(UsersFixture.path), body: UsersFixture.body)
    }
}
