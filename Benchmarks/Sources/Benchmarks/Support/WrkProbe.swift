import Foundation

/// Measures the loopback server alone with `wrk`, the physical ceiling the library's figures are
/// quoted against. `wrk` runs as a separate process, so the client side costs the server nothing
/// but the CPU `wrk` itself takes.
enum WrkProbe {
    /// Where `wrk` is, if installed.
    static var executable: URL? {
        ["/usr/bin/wrk", "/usr/local/bin/wrk"].lazy
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
            .map { URL(fileURLWithPath: $0) }
            .first
    }

    /// Requests per second `wrk` reached against `url` with `connections` connections.
    static func requestsPerSecond(url: URL, connections: Int, threads: Int, seconds: Int) async throws -> Double? {
        guard let executable else { return nil }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", url.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // Waiting with a termination handler rather than `waitUntilExit()`, which would block one
        // of the two cooperative threads the in-process server itself needs.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let value = line.split(separator: " ").last.flatMap({ Double($0) })
        else { return nil }
        return value
    }

    /// Runs `Benchmarks/scripts/ensure-wrk.sh`, which installs `wrk` from Debian when it is
    /// missing; a failure only means the server alone goes unmeasured, so it is not thrown.
    static func ensureInstalled() async {
        guard executable == nil else { return }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/ensure-wrk.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                continuation.resume()
            }
        }
    }
}
