import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario 1: the same requests to a loopback server done by hand (A: one `URLSession`,
/// `dataTask(with:completionHandler:)` bridged to async, `JSONDecoder`) and through
/// `URLSessionNetwork` (B: a `URLSession` of the same configuration, logging off, two trivial
/// actions; C: the same over the library's default `URLSessionTransport`; D: B without the
/// per-attempt timeout), sequentially and 64 at a time. The bar: B/A ≤ 1.05 in time per request.
struct LoopbackScenario {
    /// Small counts.
    var quick: Bool

    /// Sequential, then 64 in flight; small counts in quick mode.
    private var modes: [LoadMode] { LoadMode.standard(quick: quick, sequential: 2_000, concurrent: 10_000) }

    /// Rounds (A, B, C, D back to back) per mode; at least 3, so the median ignores one disturbed round.
    private var pairs: Int { quick ? 3 : 5 }

    /// The sessions, made once and kept for the life of the process: FoundationNetworking
    /// crashes in libcurl teardown when sessions come and go (the Linux notes article). C uses the
    /// library's own delegate-based transport, the default `URLSessionNetwork` makes when given no
    /// session.
    private static let sessions = (
        raw: URLSession(configuration: sessionConfiguration()),
        library: URLSession(configuration: sessionConfiguration()),
        transport: URLSessionTransport(configuration: sessionConfiguration()),
        untimed: URLSession(configuration: sessionConfiguration())
    )

    /// The configuration every session is made from; the `ahc` scenario's URLSession clients too.
    static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        // 64 in flight must mean 64 connections for every client, not a per-host cap in libcurl.
        configuration.httpMaximumConnectionsPerHost = 64
        // No client should spend time on a cache the server's answers never go into.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Starts the server, measures the clients and the server alone, and stops the server.
    func run() async throws -> ScenarioOutcome {
        let server = try await LoopbackServer.start()
        do {
            let outcome = try await measure(against: server)
            await server.stop()
            return outcome
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A (hand-written), B (the library over a plain `URLSession`, as the brief asks), C (the
    /// library over its default transport, what an app gets without passing a session) and D (B
    /// without the per-attempt timeout, to show what the deadline costs).
    private func makeClients(baseURL: URL) -> [LoadClient] {
        let raw = RawClient(
            transport: Self.sessions.raw, baseURL: baseURL, headers: BenchmarkActions.headers(forActionCount: 2))
        var configuration = NetworkConfiguration(baseURL: baseURL)
        // 64 identical GETs in flight would otherwise share wire requests, and B would be measured
        // doing less work than A. Scenario 2 measures what coalescing costs.
        configuration.coalescesIdenticalRequests = false
        let library = URLSessionNetwork(configuration: configuration, session: Self.sessions.library)
        let transport = URLSessionNetwork(configuration: configuration, session: Self.sessions.transport)
        var untimedConfiguration = configuration
        untimedConfiguration.timeout = nil
        let untimed = URLSessionNetwork(configuration: untimedConfiguration, session: Self.sessions.untimed)
        for network in [library, transport, untimed] {
            for action in BenchmarkActions.make(count: 2) { network.add(action: action) }
        }
        let request = ListUsersRequest()
        return [
            LoadClient(label: "A raw URLSession", key: "raw") { try UsersFixture.check(try await raw.listUsers()) },
            LoadClient(label: "B ECNetworking", key: "library") {
                try UsersFixture.check(try await library.send(request))
            },
            LoadClient(label: "C ECNetworking, URLSessionTransport", key: "default_transport") {
                try UsersFixture.check(try await transport.send(request))
            },
            LoadClient(label: "D ECNetworking, timeout = nil", key: "no_timeout") {
                try UsersFixture.check(try await untimed.send(request))
            },
        ]
    }

    private func measure(against server: LoopbackServer) async throws -> ScenarioOutcome {
        let clients = makeClients(baseURL: server.baseURL)
        // Warm-up: opens each session's 64 connections and runs every code path once.
        for client in clients {
            _ = try await LoadRunner.run(count: quick ? 100 : 500, concurrency: 1, client.call)
            _ = try await LoadRunner.run(count: 64 * (quick ? 4 : 16), concurrency: 64, client.call)
        }

        var outcome = ScenarioOutcome(
            title: "1. Loopback overhead (Hummingbird on 127.0.0.1, \(UsersFixture.body.count)-byte JSON, "
                + "\(pairs) rounds alternating A B C D and D C B A)",
            table: TextTable(header: [
                "mode", "client", "requests", "req/s (median)", "p50 µs", "p99 µs", "CPU µs/req", "time/req vs A",
            ])
        )
        for mode in modes {
            let samples = try await LoadRunner.interleaved(clients.map(\.call), mode: mode, rounds: pairs)
            for (index, client) in clients.enumerated() {
                record(client, samples[index], against: samples[0], mode: mode, into: &outcome)
            }
        }

        try await measureServerAlone(server, into: &outcome)
        outcome.notes.append(
            "time/req vs A = median over the rounds of the client's time per request / A's in the same round; "
                + "latencies pooled over all runs of a client; CPU µs/req = process CPU (client + in-process server) "
                + "per request. All sessions: .default, 64 connections per host, no URL cache. B, C, D: 2 actions, "
                + "logging off, coalescing off.")
        return outcome
    }

    /// Adds a client's row and figures; B's ratio is the one the bar applies to.
    private func record(
        _ client: LoadClient, _ runs: [LoadSample], against raw: [LoadSample], mode: LoadMode,
        into outcome: inout ScenarioOutcome
    ) {
        // Each round ran its clients back to back, so a ratio within a round is the least
        // affected by load that changes over time.
        let rounds = zip(raw, runs).map { $1.elapsed.nanoseconds / $0.elapsed.nanoseconds }
        let ratio = Statistics.median(rounds)
        let cpuRatio = Statistics.median(zip(raw, runs).map { $1.cpuNanoseconds / $0.cpuNanoseconds })
        let isRaw = client.key == "raw"
        let latencies = runs.flatMap(\.latencies)
        outcome.table.add(
            mode.label, client.label, "\(mode.count) × \(pairs)",
            Format.integer(Statistics.median(runs.map(\.requestsPerSecond))),
            Format.integer(Statistics.percentile(latencies, 50)),
            Format.integer(Statistics.percentile(latencies, 99)),
            Format.number(Statistics.median(runs.map(\.cpuMicrosecondsPerRequest))),
            isRaw ? "" : Format.number(ratio, decimals: 3)
        )
        let prefix = "loopback_\(mode.key)"
        outcome.result("\(prefix)_\(client.key)_rps", Format.number(Statistics.median(runs.map(\.requestsPerSecond))))
        outcome.result("\(prefix)_\(client.key)_p50_us", Format.number(Statistics.percentile(latencies, 50)))
        outcome.result("\(prefix)_\(client.key)_p99_us", Format.number(Statistics.percentile(latencies, 99)))
        switch client.key {
        case "raw":
            break
        case "library":
            outcome.result("\(prefix)_ratio", Format.number(ratio, decimals: 3))
            // The same comparison in CPU time (client and server), which other processes' load does not move.
            outcome.result("\(prefix)_cpu_ratio", Format.number(cpuRatio, decimals: 3))
            outcome.notes.append(
                "\(mode.label): B/A = \(Format.number(ratio, decimals: 3)) "
                    + "(bar ≤ 1.05: \(ratio <= 1.05 ? "met" : "MISSED")), CPU B/A = \(Format.number(cpuRatio, decimals: 3)); "
                    + "per round: " + rounds.map { Format.number($0, decimals: 3) }.joined(separator: " ")
            )
        default:
            outcome.result("\(prefix)_\(client.key)_ratio", Format.number(ratio, decimals: 3))
            outcome.result("\(prefix)_\(client.key)_cpu_ratio", Format.number(cpuRatio, decimals: 3))
        }
    }

    /// The server's own ceiling, measured by `wrk` from another process, if it is installed.
    private func measureServerAlone(_ server: LoopbackServer, into outcome: inout ScenarioOutcome) async throws {
        let url = server.baseURL.appendingPathComponent(UsersFixture.path)
        let seconds = quick ? 1 : 3
        guard
            let c64 = try await WrkProbe.requestsPerSecond(url: url, connections: 64, threads: 2, seconds: seconds),
            let c1 = try await WrkProbe.requestsPerSecond(url: url, connections: 1, threads: 1, seconds: seconds)
        else {
            outcome.notes.append("wrk is not installed (apt-get install -y wrk): the server alone was not measured.")
            return
        }
        outcome.table.add("64 connections", "server alone (wrk)", "\(seconds) s", Format.integer(c64), "", "", "", "")
        outcome.table.add("1 connection", "server alone (wrk)", "\(seconds) s", Format.integer(c1), "", "", "", "")
        outcome.result("loopback_server_wrk_c64_rps", Format.number(c64))
        outcome.result("loopback_server_wrk_c1_rps", Format.number(c1))
        outcome.notes.append(
            "wrk runs in another process against the same in-process server (-t2 -c64 and -t1 -c1, \(seconds) s): "
                + "the ceiling with no client work in this process.")
    }
}
