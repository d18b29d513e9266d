import ECNetworking
import Foundation

/// The library's download of a body whose first transfer breaks half-way, and its resumption:
/// the time it takes to finish from the break, against a whole download of the same body, over
/// one transport. The bar: the resumption takes at most 0.6 of the whole download, since it
/// fetches only the half that did not arrive.
struct ResumedDownload: Sendable {
    /// The network the downloads go through.
    let network: URLSessionNetwork
    /// The body's length.
    let byteCount: Int
    /// The transport's name, for an error.
    let label: String

    /// How long one timed download took, and the CPU time the whole process (client and in-process
    /// server) used meanwhile: time a resumption takes over half a whole download's is the process's
    /// own work when its CPU time grows alike, waiting (a timer, the disk) when it does not.
    struct Timing: Sendable {
        /// The wall time.
        var elapsed: Duration
        /// The process's CPU time, in nanoseconds.
        var cpuNanoseconds: Double
    }

    /// Downloads the body whole into a new file and returns how long it took.
    func timeWholeDownload() async throws -> Timing {
        try await withFile { file in
            let clock = ContinuousClock()
            let cpuStart = CPUTime.now()
            let start = clock.now
            let downloaded = try await network.download(GeneratedBodyRequest(byteCount: byteCount), to: file)
            let timing = Timing(elapsed: clock.now - start, cpuNanoseconds: CPUTime.now() - cpuStart)
            try check(downloaded)
            return timing
        }
    }

    /// Downloads the body until it breaks half-way (untimed), then resumes it and returns how long
    /// the resumption took to finish the file.
    func timeResumption() async throws -> Timing {
        try await withFile { file in
            let request = BrokenBodyRequest(byteCount: byteCount, breakingAt: byteCount / 2)
            let resumeData: ResumeData
            do {
                _ = try await network.download(request, to: file)
                throw BenchmarkError.unexpectedByteCount(
                    expected: byteCount / 2, received: byteCount, stored: byteCount)
            } catch DownloadError.resumable(let data, _) {
                resumeData = data
            }
            let clock = ContinuousClock()
            let cpuStart = CPUTime.now()
            let start = clock.now
            let downloaded = try await network.download(request, resumingWith: resumeData)
            let timing = Timing(elapsed: clock.now - start, cpuNanoseconds: CPUTime.now() - cpuStart)
            try check(downloaded)
            // The server waits for the bytes before the break to arrive before it closes.
            guard downloaded.resumedByteCount == Int64(byteCount / 2) else {
                throw BenchmarkError.brokenTransfer(
                    "\(label): the resumption started from byte \(downloaded.resumedByteCount), not from the "
                        + "break at \(byteCount / 2)")
            }
            return timing
        }
    }

    private func check(_ downloaded: DownloadedFile) throws {
        let size = try TransferClient.size(of: downloaded.fileURL)
        guard downloaded.response.statusCode / 100 == 2, size == byteCount else {
            throw BenchmarkError.unexpectedByteCount(
                expected: byteCount, received: Int(downloaded.byteCount), stored: size)
        }
    }

    private func withFile(_ body: (URL) async throws -> Timing) async throws -> Timing {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ecnetworking-benchmark-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        return try await body(file)
    }
}

/// `GET /bytes/{count}/break/{offset}`: a generated body whose first transfer breaks at `offset`.
struct BrokenBodyRequest: Request {
    typealias Response = Data

    /// The body's length.
    let byteCount: Int
    /// Where its first transfer breaks.
    let breakingAt: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .get, url: GeneratedBody.url(byteCount: byteCount, breakingAt: breakingAt, baseURL: baseURL))
    }
}
