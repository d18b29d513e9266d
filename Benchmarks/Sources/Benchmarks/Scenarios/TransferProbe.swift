import Foundation

/// One large transfer measured in a process of its own (`--probe METHOD --url URL --bytes N`),
/// for the resident memory it costs: the heap of a fresh process holds nothing another
/// measurement left. The server stays in the scenario's process, so its buffers are not counted.
///
/// A smaller transfer of the same method first (a quarter of the body, at most 16 MiB) creates the
/// sessions, connections, threads and allocator pools; then the peak resident size is reset to
/// the resident size now, and the growth is the peak during the measured transfer over it.
struct TransferProbe: Sendable {
    /// What a probe hands back to the scenario.
    struct Figures: Sendable, Codable {
        /// The body's length.
        var byteCount: Int
        /// Resident bytes after the warm-up, just before the transfer; `nil` without `/proc`.
        var residentBefore: Int?
        /// The most bytes resident at once during the transfer.
        var residentPeak: Int?
        /// Resident bytes after it.
        var residentAfter: Int?
        /// Whether the peak was reset before the transfer; if not, it is the peak since the
        /// process started, an upper bound.
        var peakWasReset: Bool
        /// How long the transfer took.
        var seconds: Double

        /// The peak's growth over the resident size before, in MiB.
        var growthMebibytes: Double? {
            guard let residentBefore, let residentPeak else { return nil }
            return Double(residentPeak - residentBefore) / 1_048_576
        }

        /// What stayed resident after the transfer, in MiB.
        var retainedMebibytes: Double? {
            guard let residentBefore, let residentAfter else { return nil }
            return Double(residentAfter - residentBefore) / 1_048_576
        }
    }

    /// The prefix of the line that carries the figures.
    private static let prefix = "PROBE "

    /// How the body is taken.
    var method: TransferMethod
    /// The server's address.
    var baseURL: URL
    /// The body's length.
    var byteCount: Int

    /// Runs the probe of `method` in a fresh process and returns what it measured.
    static func measure(_ method: TransferMethod, baseURL: URL, byteCount: Int) async throws -> Figures {
        try await ScenarioProcess.run(
            ["--probe", method.rawValue, "--url", baseURL.absoluteString, "--bytes", "\(byteCount)"], prefix: prefix)
    }

    /// Measures, in this process, and prints the figures for ``measure(_:baseURL:byteCount:)``.
    func runAndHand() async throws {
        try ScenarioProcess.hand(try await run(), prefix: Self.prefix)
    }

    private func run() async throws -> Figures {
        let client = TransferClient(method, baseURL: baseURL)
        do {
            try await client.warmUp(before: byteCount)
            let before = ResidentMemory.current()
            let peakWasReset = ResidentMemory.resetPeak()
            let clock = ContinuousClock()
            let start = clock.now
            try await client.run(byteCount: byteCount)
            let elapsed = clock.now - start
            let figures = Figures(
                byteCount: byteCount, residentBefore: before, residentPeak: ResidentMemory.peak(),
                residentAfter: ResidentMemory.current(), peakWasReset: peakWasReset, seconds: elapsed.nanoseconds / 1e9)
            await client.shutdown()
            return figures
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
