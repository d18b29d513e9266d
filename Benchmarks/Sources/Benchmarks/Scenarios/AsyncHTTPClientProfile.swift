import AsyncHTTPClient
import ECNetworking
import Foundation

/// One client of the `ahc` scenario alone against the loopback server, for a profiler: run it
/// with `--only profile-ahc-raw` and `--only profile-ahc-library` under the same profiler and
/// subtract, and what is left is what the library and its transport add per request over raw
/// async-http-client (the server's work is in both).
struct AsyncHTTPClientProfile {
    /// Whether to run the library over `AsyncHTTPClientTransport` (or raw async-http-client).
    var library: Bool
    /// The requests measured, after a warm-up of 500.
    var iterations: Int
    /// How many are in flight at once.
    var concurrency: Int
    /// Whether the library keeps its default 60 s timeout.
    var timeout = true

    /// Starts the server, runs the loop, and stops the server and the client whatever happens.
    func run() async throws -> ScenarioOutcome {
        let server = try await LoopbackServer.start()
        let rawClient = RawAsyncHTTPClient.makeClient(
            maximumConnectionsPerHost: AsyncHTTPClientScenario.connectionsPerHost)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(maximumConnectionsPerHost: AsyncHTTPClientScenario.connectionsPerHost))
        let result: Result<LoadSample, any Error>
        do {
            let clients = AsyncHTTPClientScenario.makeClients(
                server.baseURL, rawClient: rawClient, transport: transport, timeout: timeout)
            let client = clients.first { $0.key == (library ? "library" : "raw") }!
            _ = try await LoadRunner.run(count: 500, concurrency: concurrency, client.call)
            result = .success(try await LoadRunner.run(count: iterations, concurrency: concurrency, client.call))
        } catch {
            result = .failure(error)
        }
        try? await rawClient.shutdown()
        try? await transport.shutdown()
        await server.stop()
        let sample = try result.get()
        var outcome = ScenarioOutcome(
            title: "Profile: \(iterations) requests, \(concurrency) in flight, no other client",
            table: TextTable(header: ["client", "req/s", "CPU µs/req"]))
        outcome.table.add(
            library ? "ECNetworking over AsyncHTTPClientTransport" : "raw AsyncHTTPClient",
            Format.integer(sample.requestsPerSecond), Format.number(sample.cpuMicrosecondsPerRequest))
        outcome.result(
            "profile_ahc_\(library ? "library" : "raw")_cpu_us", Format.number(sample.cpuMicrosecondsPerRequest))
        return outcome
    }
}
