import AsyncHTTPClient
import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario `ahc`: raw async-http-client, the library over `AsyncHTTPClientTransport`, raw
/// `URLSession` and the library over `URLSessionTransport`, against the same in-process server in
/// the same run, in interleaved rounds, sequentially and 64 in flight; then the server alone with
/// `wrk`. Issue 13's bars: library over AHC / raw AHC ≤ 1.10 in time per request, and the library
/// over AHC ≥ 3.5 times the library over URLSession at 64 in flight.
struct AsyncHTTPClientScenario {
    /// Small counts.
    var quick: Bool

    /// Connections per host of both async-http-client clients: the transport's default, so the
    /// figures are what an app gets from `AsyncHTTPClientTransport()`.
    static let connectionsPerHost = AsyncHTTPClientTransport.Configuration().maximumConnectionsPerHost

    /// Sequential, then 64 in flight; more requests than the URLSession scenario, since they are faster.
    private var modes: [LoadMode] { LoadMode.standard(quick: quick, sequential: 3_000, concurrent: 20_000) }

    /// Rounds per mode; at least 3, so the median ignores one disturbed round.
    private var rounds: Int { quick ? 3 : 5 }

    /// Starts the server, measures, and stops the server and both clients whatever happens.
    func run() async throws -> ScenarioOutcome {
        let server = try await LoopbackServer.start()
        let rawClient = RawAsyncHTTPClient.makeClient(maximumConnectionsPerHost: Self.connectionsPerHost)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(maximumConnectionsPerHost: Self.connectionsPerHost))
        let result: Result<ScenarioOutcome, any Error>
        do {
            result = .success(
                try await measure(
                    against: server,
                    clients: Self.makeClients(server.baseURL, rawClient: rawClient, transport: transport)))
        } catch {
            result = .failure(error)
        }
        try? await rawClient.shutdown()
        try? await transport.shutdown()
        await server.stop()
        return try result.get()
    }

    /// The four clients in the order the table lists them: raw AHC, the library over AHC, raw
    /// URLSession, the library over URLSession; `AsyncHTTPClientProfile` runs one of them alone.
    /// With `timeout` false the library clients have none (`--no-timeout` of the profile).
    static func makeClients(
        _ baseURL: URL, rawClient: HTTPClient, transport: AsyncHTTPClientTransport, timeout: Bool = true
    ) -> [LoadClient] {
        let headers = BenchmarkActions.headers(forActionCount: 2)
        let rawAHC = RawAsyncHTTPClient(client: rawClient, baseURL: baseURL, headers: headers)
        let rawURLSession = RawClient(
            transport: URLSession(configuration: LoopbackScenario.sessionConfiguration()), baseURL: baseURL,
            headers: headers)
        var configuration = NetworkConfiguration(baseURL: baseURL)
        // As in `loopback`: 64 identical GETs must be 64 exchanges on each side.
        configuration.coalescesIdenticalRequests = false
        if !timeout { configuration.timeout = nil }
        let overAHC = URLSessionNetwork(configuration: configuration, transport: transport)
        let overURLSession = URLSessionNetwork(
            configuration: configuration,
            transport: URLSessionTransport(configuration: LoopbackScenario.sessionConfiguration()))
        for network in [overAHC, overURLSession] {
            for action in BenchmarkActions.make(count: 2) { network.add(action: action) }
        }
        let request = ListUsersRequest()
        return [
            LoadClient(label: "raw AsyncHTTPClient", key: "raw") {
                try UsersFixture.check(try await rawAHC.listUsers())
            },
            LoadClient(label: "ECNetworking over AsyncHTTPClientTransport", key: "library") {
                try UsersFixture.check(try await overAHC.send(request))
            },
            LoadClient(label: "raw URLSession", key: "urlsession_raw") {
                try UsersFixture.check(try await rawURLSession.listUsers())
            },
            LoadClient(label: "ECNetworking over URLSessionTransport", key: "urlsession_library") {
                try UsersFixture.check(try await overURLSession.send(request))
            },
        ]
    }

    private func measure(against server: LoopbackServer, clients: [LoadClient]) async throws -> ScenarioOutcome {
        // Warm-up: opens every client's connections and runs every code path once.
        for client in clients {
            _ = try await LoadRunner.run(count: quick ? 100 : 500, concurrency: 1, client.call)
            _ = try await LoadRunner.run(count: 64 * (quick ? 4 : 16), concurrency: 64, client.call)
        }
        var outcome = ScenarioOutcome(
            title: "AsyncHTTPClient transport (Hummingbird on 127.0.0.1, \(UsersFixture.body.count)-byte JSON, "
                + "\(rounds) interleaved rounds, \(Self.connectionsPerHost) AHC connections per host)",
            table: TextTable(header: [
                "mode", "client", "requests", "req/s (median)", "p50 µs", "p99 µs", "CPU µs/req",
                "time/req vs raw AHC",
            ])
        )
        for mode in modes {
            let samples = try await LoadRunner.interleaved(clients.map(\.call), mode: mode, rounds: rounds)
            for (index, client) in clients.enumerated() {
                add(client, samples[index], against: samples[0], mode: mode, to: &outcome)
            }
            let ratio = Self.timeRatio(samples[1], against: samples[0])
            outcome.result("ahc_\(mode.key)_ratio", Format.number(ratio, decimals: 3))
            outcome.notes.append(
                "\(mode.label): library over AHC / raw AHC = \(Format.number(ratio, decimals: 3)) time per request "
                    + "(bar ≤ 1.10: \(ratio <= 1.10 ? "met" : "MISSED"))")
            if mode.key == "c64" {
                let speedup =
                    Statistics.median(samples[1].map(\.requestsPerSecond))
                    / Statistics.median(samples[3].map(\.requestsPerSecond))
                outcome.result("ahc_c64_speedup_vs_urlsession", Format.number(speedup, decimals: 2))
                outcome.notes.append(
                    "64 in flight: library over AHC / library over URLSession = \(Format.number(speedup, decimals: 2))× "
                        + "requests/s (bar ≥ 3.5: \(speedup >= 3.5 ? "met" : "MISSED"))")
            }
        }
        try await measureServerAlone(server, into: &outcome)
        outcome.notes.append(
            "time/req vs raw AHC = median over the rounds of the client's time per request / raw AHC's in the same "
                + "round. Library clients: 2 actions, logging off, coalescing off. URLSession clients: .default, "
                + "64 connections per host, no URL cache.")
        return outcome
    }

    /// The median over the rounds of `runs`' time per request over `baseline`'s in the same round.
    private static func timeRatio(_ runs: [LoadSample], against baseline: [LoadSample]) -> Double {
        Statistics.median(zip(baseline, runs).map { $1.elapsed.nanoseconds / $0.elapsed.nanoseconds })
    }

    private func add(
        _ client: LoadClient, _ runs: [LoadSample], against raw: [LoadSample], mode: LoadMode,
        to outcome: inout ScenarioOutcome
    ) {
        let latencies = runs.flatMap(\.latencies)
        let requestsPerSecond = Statistics.median(runs.map(\.requestsPerSecond))
        outcome.table.add(
            mode.label, client.label, "\(mode.count) × \(rounds)", Format.integer(requestsPerSecond),
            Format.integer(Statistics.percentile(latencies, 50)), Format.integer(Statistics.percentile(latencies, 99)),
            Format.number(Statistics.median(runs.map(\.cpuMicrosecondsPerRequest))),
            client.key == "raw" ? "" : Format.number(Self.timeRatio(runs, against: raw), decimals: 3))
        outcome.result("ahc_\(mode.key)_\(client.key)_rps", Format.number(requestsPerSecond))
    }

    /// The server's ceiling with no client in this process: `wrk` from another process, installed
    /// by `scripts/ensure-tool.sh` on a full run when missing.
    private func measureServerAlone(_ server: LoopbackServer, into outcome: inout ScenarioOutcome) async throws {
        if !quick { await WrkProbe.ensureInstalled() }
        let url = server.baseURL.appendingPathComponent(UsersFixture.path)
        let seconds = quick ? 1 : 3
        guard let rps = try await WrkProbe.requestsPerSecond(url: url, connections: 64, threads: 2, seconds: seconds)
        else {
            outcome.notes.append(
                "wrk is not installed (Benchmarks/scripts/ensure-tool.sh): the server alone was not measured.")
            return
        }
        outcome.table.add(
            "64 connections", "server alone (wrk -t2 -c64)", "\(seconds) s", Format.integer(rps), "", "", "", "")
        outcome.result("server_c64_rps", Format.number(rps))
    }
}
