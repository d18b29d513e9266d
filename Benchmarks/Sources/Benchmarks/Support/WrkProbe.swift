import Foundation

/// Measures the loopback server alone with `wrk`, the physical ceiling the library's figures are
/// quoted against. `wrk` runs as a separate process, so the client side costs the server nothing
/// but the CPU `wrk` itself takes.
enum WrkProbe {
    /// Where `wrk` is, if installed.
    static var executable: URL? {
        ChildProcess.executable(among: ["/usr/bin/wrk", "/usr/local/bin/wrk"])
    }

    /// Requests per second `wrk` reached against `url` with `connections` connections.
    static func requestsPerSecond(url: URL, connections: Int, threads: Int, seconds: Int) async throws -> Double? {
        guard let executable else { return nil }
        let text = try await ChildProcess.run(
            executable, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", url.absoluteString]
        ).output
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let value = line.split(separator: " ").last.flatMap({ Double($0) })
        else { return nil }
        return value
    }

    /// Installs `wrk` from Debian when it is missing; a failure only means the server alone goes
    /// unmeasured.
    static func ensureInstalled() async {
        guard executable == nil else { return }
        _ = await ChildProcess.runScript("ensure-tool.sh", ["wrk", "wrk"])
    }
}
