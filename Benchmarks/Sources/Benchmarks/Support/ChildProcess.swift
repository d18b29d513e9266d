import Foundation

/// Runs another program to its end and collects what it printed, for the tools the benchmarks
/// drive (`wrk`, `valgrind`, the install scripts).
enum ChildProcess {
    /// What a finished program left.
    struct Result {
        /// Its exit status.
        var status: Int32
        /// Its standard output, and its standard error interleaved as written when captured.
        var output: String
    }

    /// Runs `executable` with `arguments`, adding `environment` to this process's own; its
    /// standard error is captured too, or else passes through to this process's own.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        capturesStandardError: Bool = true
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        if capturesStandardError { process.standardError = output }
        try process.run()
        // Read on a Dispatch thread, not a cooperative one: reading blocks until the program
        // exits, and the in-process server needs both cooperative threads meanwhile. Read to the
        // end before waiting, or a program filling the pipe could never exit.
        let data = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Runs one of the package's scripts (`Benchmarks/scripts/NAME`) with bash; `true` when it
    /// succeeded. A script that installs a tool fails where installing is impossible, which only
    /// means that figure goes unmeasured, so nothing is thrown.
    static func runScript(_ name: String, _ arguments: [String] = []) async -> Bool {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/\(name)")
        let result = try? await run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments)
        return result?.status == 0
    }

    /// The first of `paths` that is an executable file.
    static func executable(among paths: [String]) -> URL? {
        paths.lazy.filter { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }.first
    }
}
