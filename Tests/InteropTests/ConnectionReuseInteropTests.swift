import ECNetworking
import Foundation
import TestSupport
import Testing

/// Thousands of sends over connections nginx closes under the client (`keepalive_requests 10`
/// closes every tenth, `keepalive_timeout 1s` any idle one): each ends once, none fails, and
/// nginx's log shows every request exactly once, so nothing that is not idempotent went twice.
@Suite(
    "Interop: connection reuse across the server's closes",
    .enabled(if: InteropServers.current != nil, "run by scripts/interop.sh"), .timeLimit(.minutes(3)))
struct ConnectionReuseInteropTests {
    private struct Item: Decodable {
        let id: String
        let method: String
    }

    /// Sends request `index`, a GET or (odd ones) a POST with a body, and checks nginx's answer.
    private func send(_ index: Int, ids: RequestIDs, on network: HTTPNetwork) async throws {
        let method: HTTPMethod = index.isMultiple(of: 2) ? .get : .post
        let request = NetworkRequest(
            method: method, url: network.configuration.baseURL.appendingPathComponent("items"),
            body: method == .post ? .text("item \(index)") : nil,
            queryItems: [URLQueryItem(name: "id", value: ids.id(index))])
        let response = try await network.send(request)
        let item = try JSONDecoder().decode(Item.self, from: response.body)
        #expect(item.id == ids.id(index))
        #expect(item.method == method.rawValue)
    }

    /// Checks that nginx logged each of the run's `count` requests exactly once, with its method,
    /// but for those in `failed`, which it may have logged once or not at all; returns the entries.
    @discardableResult
    private func expectEachSentOnce(_ ids: RequestIDs, count: Int, failed: Set<Int> = []) async throws
        -> [AccessLogEntry]
    {
        let servers = try requireServers()
        // nginx logs a request once its answer is written, a moment after the client has it.
        try await waitUntil(timeout: .seconds(10)) {
            ((try? servers.accessLog()).map { ids.entries(in: $0).count } ?? 0) >= count - failed.count
        }
        let entries = ids.entries(in: try servers.accessLog())
        let byID = Dictionary(grouping: entries, by: \.id)
        for index in 0..<count {
            let seen = byID[ids.id(index)] ?? []
            if failed.contains(index) {
                #expect(seen.count <= 1, "request \(index) reached nginx \(seen.count) times")
            } else {
                #expect(seen.count == 1, "request \(index) reached nginx \(seen.count) times")
            }
            #expect(seen.allSatisfy { $0.method == (index.isMultiple(of: 2) ? "GET" : "POST") })
        }
        return entries
    }

    /// Checks the sends that failed: a GET never does (it is sent again on a new connection); a
    /// POST whose head went out may have reached the server, so it is not sent again: it fails as
    /// a lost connection that says so, or, on `URLSession` (libcurl), it may wait out its deadline.
    /// Returns their indexes.
    private func expectOnlyPOSTsFailed(
        _ failures: [(index: Int, error: any Error)], over transport: InteropTransport
    ) -> Set<Int> {
        for failure in failures {
            let isPOST = !failure.index.isMultiple(of: 2)
            switch failure.error {
            case let error as NetworkError where isPOST && error.requestMayHaveBeenSent: break
            case NetworkError.timedOut where isPOST && transport == .urlSession: break
            default: Issue.record("request \(failure.index) failed: \(failure.error)")
            }
        }
        return Set(failures.map(\.index))
    }

    /// Sends request `index`, keeping its error in `failures` rather than throwing it.
    private func send(
        _ index: Int, ids: RequestIDs, on network: HTTPNetwork, failures: Log<(index: Int, error: any Error)>
    ) async {
        do {
            try await send(index, ids: ids, on: network)
        } catch {
            failures.append((index, error))
        }
    }

    // A POST that meets a connection nginx has just closed for idleness (when the machine is so
    // loaded that a second passes between two sends) waits out its deadline on URLSession; it did
    // once in about twenty runs. A short deadline keeps the test short.
    @Test(
        "2,000 sequential GETs and POSTs, every tenth connection closed by nginx", arguments: InteropTransport.allCases)
    func sequential(_ transport: InteropTransport) async throws {
        let servers = try requireServers()
        let ids = RequestIDs()
        let failures = Log<(index: Int, error: any Error)>()
        try await transport.withNetwork(baseURL: servers.http, configure: { $0.timeout = .seconds(10) }) { network in
            for index in 0..<2_000 {
                await send(index, ids: ids, on: network, failures: failures)
            }
        }
        let failed = expectOnlyPOSTsFailed(failures.all, over: transport)
        let entries = try await expectEachSentOnce(ids, count: 2_000, failed: failed)
        // One connection per ten requests: nginx really closed them.
        #expect(Set(entries.map(\.connection)).count >= 200)
        #expect(entries.allSatisfy { $0.connectionRequests <= 10 })
    }

    @Test("2,000 GETs and POSTs, 64 in flight, across nginx's closes", arguments: InteropTransport.allCases)
    func concurrent(_ transport: InteropTransport) async throws {
        let servers = try requireServers()
        let ids = RequestIDs()
        let failures = Log<(index: Int, error: any Error)>()
        try await transport.withNetwork(baseURL: servers.http, configure: { $0.timeout = .seconds(10) }) { network in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<2_000 {
                    if index >= 64 { await group.next() }
                    group.addTask { await send(index, ids: ids, on: network, failures: failures) }
                }
                await group.waitForAll()
            }
        }
        let failed = expectOnlyPOSTsFailed(failures.all, over: transport)
        try await expectEachSentOnce(ids, count: 2_000, failed: failed)
    }

    @Test(
        "a send that meets a connection nginx just closed for being idle a second",
        arguments: InteropTransport.allCases)
    func idleCloses(_ transport: InteropTransport) async throws {
        let servers = try requireServers()
        let ids = RequestIDs()
        // Four lanes, each pausing about as long as nginx keeps an idle connection, a few
        // milliseconds apart, so some sends meet a connection in the moment it is closed.
        let lanes = 4
        let rounds = 6
        let failures = Log<(index: Int, error: any Error)>()
        // A POST that meets a closed connection may wait out its deadline on URLSession (libcurl
        // waited once in eight runs): a short one keeps the test short.
        try await transport.withNetwork(baseURL: servers.http, configure: { $0.timeout = .seconds(10) }) { network in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<lanes {
                    group.addTask {
                        for round in 0..<rounds {
                            await send(lane * rounds + round, ids: ids, on: network, failures: failures)
                            try await Task.sleep(for: .milliseconds(990 + 7 * lane))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let failed = expectOnlyPOSTsFailed(failures.all, over: transport)
        try await expectEachSentOnce(ids, count: lanes * rounds, failed: failed)
    }
}
