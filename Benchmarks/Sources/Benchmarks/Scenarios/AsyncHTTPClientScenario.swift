import AsyncHTTPClient
import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario `ahc`: raw async-http-client, the library over `AsyncHTTPClientTransport`, raw
/// `URLSession` and the library over `URLSessionTransport`, against the same in-process server in
/// the same run, in interleaved rounds, sequentially and 64 in flight; then the server alone with
/// `wrk`. Raw async-http-client is measured through both its interfaces, and the library is
/// compared, round by round, with the faster of the two: the one whose median time per request
/// over the rounds is lower. The bars: library over AHC ÷ faster raw AHC
/// ≤ 1.05 in time per request, with the server on its own loops, and the library over AHC ≥ 3.5
/// times the library over URLSession at 64 in flight. The server runs on its own event loops, then
/// on NIO's shared ones: both topologies are reported. Then the async-http-client clients again
/// over TLS, HTTP/1.1 (held to the same bar) and HTTP/2 (reported).
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

    /// Measures both server topologies, one after the other, each with a fresh server and fresh
    /// clients.
    func run() async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome(
            title: "AsyncHTTPClient transport (Hummingbird on 127.0.0.1, \(UsersFixture.body.count)-byte JSON, "
                + "\(rounds) rounds alternating their order, \(Self.connectionsPerHost) AHC connections per host)",
            table: TextTable(header: [
                "server loops", "mode", "client", "requests", "req/s (median)", "p50 µs", "p99 µs", "CPU µs/req",
                "time/req vs faster raw AHC",
            ])
        )
        for topology in LoopbackServer.Topology.allCases {
            try await measure(topology, into: &outcome)
        }
        for protocols in LoopbackServer.TLSProtocols.allCases {
            try await measureTLS(protocols, into: &outcome)
        }
        outcome.notes.append(
            "time/req vs faster raw AHC = median over the rounds of the client's time per request ÷ the faster raw "
                + "AsyncHTTPClient interface's in the same round; the faster interface is the one whose median "
                + "time per request over the rounds is lower (async `execute(_:deadline:)` with a per-request "
                + "deadline, or the delegate interface `execute(request:)`, which is how the library's transport "
                + "gathers a body). It is picked once per mode, not round by round: the lower of two noisy "
                + "figures in each round is lower than either interface's own, so a per-round pick made the "
                + "library look slower than it is against both (ahc_*_per_round_min_ratio, reported). Library clients: 2 actions, logging off, coalescing off. URLSession clients: "
                + ".default, 64 connections per host, no URL cache.")
        outcome.notes.append(
            "TLS: the server on its own loops presents a self-signed certificate for localhost made in memory "
                + "(P-256), which both async-http-client clients trust alone (the library's through "
                + "TLSPolicy(trustRoots: .only(_:))); tls_http1 offers HTTP/1.1 only (ahc_tls_*, bar ≤ 1.05), tls_h2 "
                + "offers HTTP/2, which both negotiate by ALPN (ahc_tls_h2_*, reported). URLSession is left out: "
                + "FoundationNetworking cannot be told to trust the certificate.")
        outcome.notes.append(
            "Server loops: own = the server on event loops of its own (the headline figures, ahc_*); shared = on "
                + "NIO's shared loops, which the clients use too (ahc_shared_loops_*), where a connection whose two "
                + "ends land on one loop skips a thread wake-up and figures depend on where connections land.")
        return outcome
    }

    /// Starts a server on `topology`, measures every client against it, and stops the server and
    /// the clients whatever happens.
    private func measure(_ topology: LoopbackServer.Topology, into outcome: inout ScenarioOutcome) async throws {
        let server = try await LoopbackServer.start(topology: topology)
        let rawClient = RawAsyncHTTPClient.makeClient(maximumConnectionsPerHost: Self.connectionsPerHost)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(maximumConnectionsPerHost: Self.connectionsPerHost))
        try await Self.closing(server, rawClient, transport) {
            let round =
                topology == .ownLoops
                ? Round(prefix: "ahc_", label: "own", isHeldToBar: true)
                : Round(prefix: "ahc_shared_loops_", label: "shared", isHeldToBar: false)
            try await measure(
                round, clients: Self.makeClients(server.baseURL, rawClient: rawClient, transport: transport),
                into: &outcome)
            if topology == .ownLoops { try await measureServerAlone(server, into: &outcome) }
        }
    }

    /// Runs `body`, then shuts `rawClient`, `transport` and `server` down whether it threw or not.
    private static func closing(
        _ server: LoopbackServer, _ rawClient: HTTPClient, _ transport: AsyncHTTPClientTransport,
        after body: () async throws -> Void
    ) async throws {
        let result: Result<Void, any Error>
        do {
            try await body()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        try? await rawClient.shutdown()
        try? await transport.shutdown()
        await server.stop()
        try result.get()
    }

    /// Starts a server on its own loops serving HTTPS with a certificate made for the run,
    /// offering `protocols`, and measures the two raw async-http-client interfaces and the library
    /// over `AsyncHTTPClientTransport` against it, each trusting that certificate alone.
    private func measureTLS(_ protocols: LoopbackServer.TLSProtocols, into outcome: inout ScenarioOutcome)
        async throws
    {
        let certificate = try LoopbackCertificate()
        let server = try await LoopbackServer.start(topology: .ownLoops, tls: certificate, protocols: protocols)
        let rawClient = RawAsyncHTTPClient.makeClient(
            maximumConnectionsPerHost: Self.connectionsPerHost, tls: try certificate.clientConfiguration())
        let transport = AsyncHTTPClientTransport(
            configuration: .init(
                maximumConnectionsPerHost: Self.connectionsPerHost,
                tls: TLSPolicy(trustRoots: .only([try TLSCertificate(pem: certificate.pem)]))))
        try await Self.closing(server, rawClient, transport) {
            let clients = Array(
                Self.makeClients(server.baseURL, rawClient: rawClient, transport: transport).prefix(3))
            // Both sides must speak what the round is named for.
            let version = try await RawAsyncHTTPClient(client: rawClient, baseURL: server.baseURL, headers: [])
                .negotiatedVersion()
            guard version == (protocols == .http2 ? .http2 : .http1_1) else {
                throw BenchmarkError.unexpectedProtocol("\(version)")
            }
            let round =
                protocols == .http1
                ? Round(prefix: "ahc_tls_", label: "tls_http1", isHeldToBar: true)
                : Round(prefix: "ahc_tls_h2_", label: "tls_h2", isHeldToBar: false)
            try await measure(round, clients: clients, into: &outcome)
        }
    }

    /// What a set of rounds is called in the table and in RESULT names, and whether its ratio is
    /// held to the bar.
    private struct Round {
        let prefix: String
        let label: String
        let isHeldToBar: Bool
    }

    /// The five clients in the order the table lists them: raw AHC through its async interface,
    /// raw AHC through its delegate interface, the library over AHC, raw URLSession, the library
    /// over URLSession; `AsyncHTTPClientProfile` runs one of them alone. With `timeout` false the
    /// library clients have none (`--no-timeout` of the profile).
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
            LoadClient(label: "raw AsyncHTTPClient, async", key: "raw") {
                try UsersFixture.check(try await rawAHC.listUsers())
            },
            LoadClient(label: "raw AsyncHTTPClient, delegate", key: "raw_delegate") {
                try UsersFixture.check(try await rawAHC.listUsersViaDelegate())
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

    /// Measures `clients` (the raw async interface, the raw delegate interface, the library over
    /// AHC, and optionally the two URLSession clients) in interleaved rounds of every mode.
    private func measure(_ round: Round, clients: [LoadClient], into outcome: inout ScenarioOutcome) async throws {
        // Warm-up: opens every client's connections and runs every code path once.
        for client in clients {
            _ = try await LoadRunner.run(count: quick ? 100 : 500, concurrency: 1, client.call)
            _ = try await LoadRunner.run(count: 64 * (quick ? 4 : 16), concurrency: 64, client.call)
        }
        let prefix = round.prefix
        let loops = round.label
        for mode in modes {
            let samples = try await LoadRunner.interleaved(clients.map(\.call), mode: mode, rounds: rounds)
            let fasterRaw = Self.fasterInterface(samples[0], samples[1])
            for (index, client) in clients.enumerated() {
                let row = [loops, mode.label, client.label, "\(mode.count) × \(rounds)"]
                add(client, samples[index], against: fasterRaw, row: row, to: &outcome)
                outcome.result(
                    "\(prefix)\(mode.key)_\(client.key)_rps",
                    Format.number(
                        Statistics.median(samples[index].map(\.requestsPerSecond))))
            }
            let rounds = Self.roundRatios(samples[2], against: fasterRaw)
            let ratio = Statistics.median(rounds)
            outcome.result("\(prefix)\(mode.key)_ratio", Format.number(ratio, decimals: 3))
            let perRoundMin = Self.roundRatios(samples[2], against: Self.fasterPerRound(samples[0], samples[1]))
            outcome.result(
                "\(prefix)\(mode.key)_per_round_min_ratio",
                Format.number(Statistics.median(perRoundMin), decimals: 3))
            outcome.result(
                "\(prefix)\(mode.key)_vs_async_ratio",
                Format.number(Statistics.median(Self.roundRatios(samples[2], against: samples[0])), decimals: 3))
            outcome.result(
                "\(prefix)\(mode.key)_vs_delegate_ratio",
                Format.number(Statistics.median(Self.roundRatios(samples[2], against: samples[1])), decimals: 3))
            outcome.notes.append(
                "\(loops) loops, \(mode.label): library over AHC ÷ faster raw AHC = \(Format.number(ratio, decimals: 3)) "
                    + "time per request (\(round.isHeldToBar ? "bar ≤ 1.05: \(ratio <= 1.05 ? "met" : "MISSED")" : "reported")); "
                    + "per round: "
                    + rounds.map { Format.number($0, decimals: 3) }.joined(separator: " "))
            if mode.key == "c64" && clients.count == 5 {
                let speedup =
                    Statistics.median(samples[2].map(\.requestsPerSecond))
                    / Statistics.median(samples[4].map(\.requestsPerSecond))
                outcome.result("\(prefix)c64_speedup_vs_urlsession", Format.number(speedup, decimals: 2))
                outcome.notes.append(
                    "\(loops) loops, 64 in flight: library over AHC ÷ library over URLSession = "
                        + "\(Format.number(speedup, decimals: 2))× requests/s ("
                        + (round.isHeldToBar ? "bar ≥ 3.5: \(speedup >= 3.5 ? "met" : "MISSED"))" : "reported)"))
            }
        }
    }

    /// Whichever of the two interfaces' rounds, `first` or `second`, has the lower median time
    /// per request: the faster interface, to pair with the library round by round.
    private static func fasterInterface(_ first: [LoadSample], _ second: [LoadSample]) -> [LoadSample] {
        let firstMedian = Statistics.median(first.map(\.elapsed.nanoseconds))
        let secondMedian = Statistics.median(second.map(\.elapsed.nanoseconds))
        return firstMedian <= secondMedian ? first : second
    }

    /// Each round's sample of whichever of `first` and `second` took less time in that round: the
    /// old pick, biased against the library, still reported.
    private static func fasterPerRound(_ first: [LoadSample], _ second: [LoadSample]) -> [LoadSample] {
        zip(first, second).map { $0.elapsed <= $1.elapsed ? $0 : $1 }
    }

    /// `runs`' time per request over `baseline`'s, round by round.
    private static func roundRatios(_ runs: [LoadSample], against baseline: [LoadSample]) -> [Double] {
        zip(baseline, runs).map { $1.elapsed.nanoseconds / $0.elapsed.nanoseconds }
    }

    private func add(
        _ client: LoadClient, _ runs: [LoadSample], against fasterRaw: [LoadSample], row: [String],
        to outcome: inout ScenarioOutcome
    ) {
        let latencies = runs.flatMap(\.latencies)
        let isRaw = client.key == "raw" || client.key == "raw_delegate"
        outcome.table.rows.append(
            row + [
                Format.integer(Statistics.median(runs.map(\.requestsPerSecond))),
                Format.integer(Statistics.percentile(latencies, 50)),
                Format.integer(Statistics.percentile(latencies, 99)),
                Format.number(Statistics.median(runs.map(\.cpuMicrosecondsPerRequest))),
                isRaw ? "" : Format.number(Statistics.median(Self.roundRatios(runs, against: fasterRaw)), decimals: 3),
            ])
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
            "own", "64 connections", "server alone (wrk -t2 -c64)", "\(seconds) s", Format.integer(rps), "", "", "", "")
        outcome.result("server_c64_rps", Format.number(rps))
    }
}
