import ECNetworking
import Foundation

/// A loop of sequential sends through the in-memory session, timed as a whole. The loop lives in
/// the type, so the per-send cost includes no closure call or existential dispatch.
protocol PipelineLoop: Sendable {
    /// Sends `iterations` requests one after another, checking each answer.
    func run(iterations: Int) async throws
}

/// The hand-written baseline: the same `URLRequest`, the same session, the same decoding.
struct BaselineLoop: PipelineLoop {
    /// The client, holding the headers the library's actions would add.
    let client: RawClient<InMemorySession>

    /// A baseline sending the headers that `actionCount` benchmark actions add.
    init(session: InMemorySession, baseURL: URL, actionCount: Int) {
        client = RawClient(
            transport: session, baseURL: baseURL, headers: BenchmarkActions.headers(forActionCount: actionCount))
    }

    /// Sends through the hand-written client.
    func run(iterations: Int) async throws {
        for _ in 0..<iterations {
            try UsersFixture.check(try await client.listUsers())
        }
    }
}

/// The hand-written baseline made to keep the library's promises (see ``GuardedRawClient``): a
/// diagnostic row, not a bar's baseline. A loop of its own, as ``BaselineLoop`` is, rather than one
/// generic loop over both clients: run through `any PipelineLoop`, a generic loop is not
/// specialized, and it cost the baseline one more allocation per send.
struct GuardedBaselineLoop: PipelineLoop {
    /// The client, holding the headers the library's actions would add.
    let client: GuardedRawClient<InMemorySession>

    /// A guarded client sending the headers that `actionCount` benchmark actions add.
    init(session: InMemorySession, baseURL: URL, actionCount: Int) {
        client = GuardedRawClient(
            transport: session, baseURL: baseURL, headers: BenchmarkActions.headers(forActionCount: actionCount))
    }

    /// Sends through the guarded hand-written client.
    func run(iterations: Int) async throws {
        for _ in 0..<iterations {
            try UsersFixture.check(try await client.listUsers())
        }
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
