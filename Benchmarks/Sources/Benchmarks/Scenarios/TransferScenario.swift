import ECNetworking
import Foundation

/// Scenario `transfer`: issue 14's figures for large bodies. The in-process server generates the
/// body as it sends it (1 GiB; 64 MiB with `--quick`), and
///
/// 1. each ``TransferMethod`` takes it once in a process of its own (``TransferProbe``), for the
///    growth of that process's resident memory: the library's download to a file and its stream
///    read to the end, over `URLSessionTransport` and `AsyncHTTPClientTransport`, and the raw
///    downloads beside them for reference;
/// 2. this process downloads it to a file in interleaved rounds, raw and through the library, over
///    each transport, for the time the library adds.
///
/// 3. the same for uploads: the library's file upload against the same transport's raw upload,
///    and resident growth for a file, a stream (AsyncHTTPClient only) and a multipart form.
///
/// Bars: resident growth ≤ 32 MiB for the library's download, stream and uploads, and the
/// library's download time over the same transport's raw download ≤ 1.10 and its CPU ≤ 1.20, its
/// file upload time over the raw upload ≤ 1.15.
struct TransferScenario {
    /// A 64 MiB body instead of 1 GiB.
    var quick: Bool

    /// The most a library transfer's resident memory may grow, in MiB.
    private static let memoryBar = 32.0
    /// The most a library download may take over the raw one, as a ratio of times.
    private static let timeBar = 1.10
    /// The most CPU a library download may use over the raw one, as a ratio.
    private static let cpuBar = 1.20
    /// The most a library file upload may take over the same transport's raw one.
    private static let uploadTimeBar = 1.15
    /// The most time a resumption from half-way may take, as a fraction of a whole download.
    private static let resumptionBar = 0.6

    /// The body's length.
    private var byteCount: Int { quick ? 64 * 1_048_576 : 1_073_741_824 }
    /// The body's length for a paced reader, which would take half a minute over 1 GiB.
    private var pacedByteCount: Int { min(byteCount, 64 * 1_048_576) }
    /// Rounds of the timed downloads: odd, for a true median, and more than 3, since one 1 GiB
    /// download is long enough for other work on the machine to come and go within it.
    private let rounds = 5
    /// Processes per method for the resident growth, of which the worst counts: without
    /// backpressure the growth depends on how the threads happened to be scheduled.
    private var probeRounds: Int { quick ? 1 : 3 }

    /// The timed downloads: each transport's raw download, then the library's over it.
    private static let timedPairs: [(raw: TransferMethod, library: TransferMethod)] = [
        (.urlSessionRaw, .urlSessionDownload), (.asyncHTTPClientRaw, .asyncHTTPClientDownload),
        (.urlSessionRawUpload, .urlSessionUploadFile), (.asyncHTTPClientRawUpload, .asyncHTTPClientUploadFile),
    ]

    /// Starts the server, measures, and stops the server and removes the upload sources whatever
    /// happens.
    func run() async throws -> ScenarioOutcome {
        defer { UploadSource.remove(byteCounts: [byteCount, TransferClient.warmUpByteCount(before: byteCount)]) }
        return try await withServer(measure)
    }

    /// Scenario `resume`: only the resumed download's time against a whole download's (the last
    /// part of ``run()``), against the same server.
    func runResumption() async throws -> ScenarioOutcome {
        try await withServer { baseURL in
            var outcome = ScenarioOutcome(
                title: "Resumption: a \(Self.size(byteCount)) body generated as it is sent (Hummingbird on 127.0.0.1)",
                table: TextTable(header: ["figure", "client", "value", "bar"]))
            try await measureResumption(baseURL, into: &outcome)
            return outcome
        }
    }

    /// Starts the server, runs `body` against it, and stops the server whatever happens.
    private func withServer(_ body: (URL) async throws -> ScenarioOutcome) async throws -> ScenarioOutcome {
        let server = try await LoopbackServer.start()
        do {
            let outcome = try await body(server.baseURL)
            await server.stop()
            return outcome
        } catch {
            await server.stop()
            throw error
        }
    }

    private func measure(_ baseURL: URL) async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome(
            title: "Transfer: a \(Self.size(byteCount)) body generated as it is sent (Hummingbird on 127.0.0.1)",
            table: TextTable(header: ["figure", "client", "value", "bar"]))
        // Rounds of every method in turn, so that a busy spell of the machine falls on all alike.
        var probes: [TransferMethod: [TransferProbe.Figures]] = [:]
        for _ in 0..<probeRounds {
            for method in TransferMethod.allCases {
                probes[method, default: []].append(
                    try await TransferProbe.measure(
                        method, baseURL: baseURL, byteCount: method.kind == .pacedStream ? pacedByteCount : byteCount))
            }
        }
        for method in TransferMethod.allCases {
            record(probes[method] ?? [], of: method, into: &outcome)
        }
        try await measureTime(baseURL, into: &outcome)
        try await measureResumption(baseURL, into: &outcome)
        outcome.notes.append(
            "Resident growth: \(probeRounds > 1 ? "the worst of \(probeRounds) fresh processes" : "a fresh process") per client, each after a warm-up transfer of a quarter of the body "
                + "(at most 16 MiB); the peak resident size (VmHWM, reset through /proc/self/clear_refs) during the "
                + "transfer over the resident size before it; kept = resident after over before. The server runs "
                + "in the scenario's process, so its buffers are not counted. The paced readers (no bar) take "
                + "\(Self.size(pacedByteCount)) at \(TransferMethod.Kind.pacedBytesPerSecond / 1_048_576) MiB/s, slower than "
                + "the wire: when nothing bounds what the reader has not taken, their growth approaches the body's length."
        )
        outcome.notes.append(
            "Time: median over \(rounds) rounds of the library's time over the raw client's in the same "
                + "round, same transport, raw first in even rounds and the library first in odd ones; CPU = the "
                + "whole process (client and in-process server). Downloads: raw URLSession = a data task whose "
                + "delegate writes each chunk to a file where it arrives (on Linux on FoundationNetworking's own "
                + "thread, as URLSessionTransport's delegate runs); raw AsyncHTTPClient = the response body written "
                + "buffer by buffer; both with write(2), as the library writes. Uploads (PUT of a sparse file, the "
                + "server counting and dropping what it receives): raw URLSession = an upload task from the file; "
                + "raw AsyncHTTPClient = the file read in 64 KiB buffers with its length; the library = a .file(at:) "
                + "body. Library clients: 2 actions, default configuration. Not measured: a one-shot .stream upload "
                + "over URLSessionTransport, which gathers the stream (up to 32 MiB) since URLSession takes bytes or "
                + "an InputStream.")
        return outcome
    }

    /// Adds a row for the probes of `method` and its `RESULT` line: the worst growth.
    private func record(
        _ probes: [TransferProbe.Figures], of method: TransferMethod, into outcome: inout ScenarioOutcome
    ) {
        guard let first = probes.first else { return }
        let speed = Format.integer(
            Statistics.median(probes.map { Double($0.byteCount) / 1_048_576 / $0.seconds }))
        let growths = probes.compactMap(\.growthMebibytes)
        let kept = probes.compactMap(\.retainedMebibytes)
        guard let growth = growths.max(), let mostKept = kept.max() else {
            outcome.table.add("resident growth", method.label, "not measurable here (no /proc); \(speed) MiB/s", "")
            return
        }
        let isHeldToBar = [.download, .stream, .uploadFile, .uploadStream, .uploadForm].contains(method.kind)
        let isMet = growth <= Self.memoryBar
        let runs = growths.count > 1 ? " (\(growths.map { Format.number($0) }.joined(separator: ", ")))" : ""
        outcome.table.add(
            "resident growth over \(Self.size(first.byteCount))", method.label,
            "\(Format.number(growth)) MiB peak\(runs), ≤ \(Format.number(mostKept)) MiB kept; \(speed) MiB/s",
            isHeldToBar ? "≤ \(Format.integer(Self.memoryBar)) MiB: \(isMet ? "met" : "MISSED")" : "reference")
        let sizeName = Self.size(first.byteCount).lowercased().replacingOccurrences(of: " ", with: "")
        outcome.result("\(method.resultName)_\(sizeName)_rss_growth_mib", Format.number(growth))
        if probes.contains(where: { !$0.peakWasReset }) {
            outcome.notes.append(
                "\(method.label): the peak could not be reset, so its growth is measured from the peak since start-up.")
        }
    }

    /// `byteCount` as `1 GiB` or `64 MiB`.
    private static func size(_ byteCount: Int) -> String {
        byteCount >= 1_073_741_824 ? "\(byteCount / 1_073_741_824) GiB" : "\(byteCount / 1_048_576) MiB"
    }

    /// Downloads the body in interleaved rounds with each timed pair's clients and adds the ratios.
    private func measureTime(_ baseURL: URL, into outcome: inout ScenarioOutcome) async throws {
        let methods = Self.timedPairs.flatMap { [$0.raw, $0.library] }
        let clients = methods.map { TransferClient($0, baseURL: baseURL) }
        var samples = Array(repeating: [LoadSample](), count: clients.count)
        do {
            for client in clients { try await client.warmUp(before: byteCount) }
            for round in 0..<rounds {
                for pair in stride(from: 0, to: clients.count, by: 2) {
                    // Raw first in even rounds, the library first in odd ones: whichever runs second
                    // meets the page cache and the disk's write-back the first one left behind.
                    for index in round.isMultiple(of: 2) ? [pair, pair + 1] : [pair + 1, pair] {
                        let client = clients[index]
                        samples[index].append(
                            try await LoadRunner.run(count: 1, concurrency: 1) {
                                try await client.run(byteCount: byteCount)
                            })
                    }
                }
            }
        } catch {
            for client in clients { await client.shutdown() }
            throw error
        }
        for client in clients { await client.shutdown() }
        for (index, pair) in Self.timedPairs.enumerated() {
            record(
                raw: samples[2 * index], of: pair.raw, library: samples[2 * index + 1], of: pair.library,
                into: &outcome)
        }
    }

    /// Times, over each transport, a resumption from half-way against a whole download of the
    /// same body, in rounds alternating which goes first, and adds the ratios.
    private func measureResumption(_ baseURL: URL, into outcome: inout ScenarioOutcome) async throws {
        let transport = AsyncHTTPClientTransport(
            configuration: .init(maximumConnectionsPerHost: TransferClient.connectionsPerHost))
        let runs = [
            (
                "", "URLSessionTransport",
                URLSessionNetwork(
                    configuration: NetworkConfiguration(baseURL: baseURL), session: TransferClient.urlSessionTransport)
            ),
            (
                "ahc_", "AsyncHTTPClientTransport",
                URLSessionNetwork(
                    configuration: NetworkConfiguration(baseURL: baseURL), transport: transport)
            ),
        ]
        do {
            for (prefix, label, network) in runs {
                let download = ResumedDownload(
                    network: TransferClient.withActions(network), byteCount: byteCount, label: label)
                _ = try await download.timeResumption()  // warm-up
                var ratios: [Double] = []
                var cpuRatios: [Double] = []
                for round in 0..<rounds {
                    let (whole, resumed): (ResumedDownload.Timing, ResumedDownload.Timing)
                    if round.isMultiple(of: 2) {
                        whole = try await download.timeWholeDownload()
                        resumed = try await download.timeResumption()
                    } else {
                        resumed = try await download.timeResumption()
                        whole = try await download.timeWholeDownload()
                    }
                    ratios.append(resumed.elapsed.nanoseconds / whole.elapsed.nanoseconds)
                    cpuRatios.append(resumed.cpuNanoseconds / whole.cpuNanoseconds)
                }
                let ratio = Statistics.median(ratios)
                let cpuRatio = Statistics.median(cpuRatios)
                outcome.table.add(
                    "resumed download time (median of \(rounds))", "ECNetworking download, \(label)",
                    "from the half-way break: \(Format.number(ratio, decimals: 3))× a whole download, "
                        + "CPU \(Format.number(cpuRatio, decimals: 3))×",
                    "≤ \(Self.resumptionBar): \(ratio <= Self.resumptionBar ? "met" : "MISSED"); rounds "
                        + ratios.map { Format.number($0, decimals: 2) }.joined(separator: ", "))
                outcome.result("\(prefix)resumed_download_time_ratio", Format.number(ratio, decimals: 3))
                outcome.result("\(prefix)resumed_download_cpu_ratio", Format.number(cpuRatio, decimals: 3))
            }
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try? await transport.shutdown()
        outcome.notes.append(
            "Resumed download: the body's first transfer breaks at half its length (the server closes the "
                + "connection); `download(_:resumingWith:)` with the ResumeData it threw fetches the rest "
                + "(Range: bytes=N-, If-Range with the ETag). Its time ÷ a whole download's, same transport, "
                + "the order alternating by round; CPU = the whole process's (client and in-process server) over "
                + "the same (no bar): a resumption's extra time is the process's own work when its CPU grows alike.")
    }

    /// The time and CPU ratios against their bars: for a download, time and CPU; for an upload,
    /// time.
    private func verdict(time: Double, cpu: Double, isUpload: Bool) -> String {
        let figures = "\(Format.number(time, decimals: 3))× raw, CPU \(Format.number(cpu, decimals: 3))×"
        guard !isUpload else {
            return figures + " (≤ \(Self.uploadTimeBar): \(time <= Self.uploadTimeBar ? "met" : "MISSED"))"
        }
        return figures + " (≤ \(Self.timeBar): \(time <= Self.timeBar ? "met" : "MISSED"); CPU ≤ \(Self.cpuBar): "
            + "\(cpu <= Self.cpuBar ? "met" : "MISSED"))"
    }

    private func record(
        raw: [LoadSample], of rawMethod: TransferMethod, library: [LoadSample], of libraryMethod: TransferMethod,
        into outcome: inout ScenarioOutcome
    ) {
        let ratios = zip(raw, library).map { $1.elapsed.nanoseconds / $0.elapsed.nanoseconds }
        let ratio = Statistics.median(ratios)
        let cpuRatio = Statistics.median(zip(raw, library).map { $1.cpuNanoseconds / $0.cpuNanoseconds })
        for (method, samples) in [(rawMethod, raw), (libraryMethod, library)] {
            let seconds = Statistics.median(samples.map { $0.elapsed.nanoseconds / 1e9 })
            let speed = Double(byteCount) / 1_048_576 / seconds
            let cpuSeconds = Statistics.median(samples.map { $0.cpuNanoseconds / 1e9 })
            let isRaw = method == rawMethod
            outcome.table.add(
                "\(method.kind.isUpload ? "upload" : "download") time (median of \(rounds))", method.label,
                "\(Format.number(seconds, decimals: 2)) s (\(Format.integer(speed)) MiB/s), "
                    + "CPU \(Format.number(cpuSeconds, decimals: 2)) s",
                isRaw
                    ? ""
                    : verdict(time: ratio, cpu: cpuRatio, isUpload: method.kind.isUpload)
                        + "; rounds \(ratios.map { Format.number($0, decimals: 2) }.joined(separator: ", "))"
            )
            outcome.result("\(method.resultName)_mib_per_s", Format.number(speed))
        }
        outcome.result("\(libraryMethod.resultName)_throughput_ratio", Format.number(ratio, decimals: 3))
        outcome.result("\(libraryMethod.resultName)_throughput_cpu_ratio", Format.number(cpuRatio, decimals: 3))
    }
}
