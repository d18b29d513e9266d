import Foundation
import Testing

/// One test of this test binary run alone in a child process: for a measure that belongs to a
/// whole process (its peak memory), or a cell that is expected to stop the process.
public enum ChildTestProcess {
    /// How a child ended, with what it wrote to its standard error.
    public struct Ending: Sendable {
        /// Whether it exited or was stopped by a signal.
        public let reason: Process.TerminationReason
        /// Its exit status, or the signal that stopped it.
        public let status: Int32
        /// What it wrote to its standard error.
        public let standardError: String
    }

    /// Runs `test` (a `--filter` of this binary's) in a child process with `environment` added
    /// to this process's, and waits for it to end, for at most `timeout`.
    public static func run(test: String, environment: [String: String], timeout: Duration) async throws -> Ending {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("child-test-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", test]
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = errorHandle
        try child.run()
        try await waitUntil(timeout: timeout) { !child.isRunning }
        return Ending(
            reason: child.terminationReason, status: child.terminationStatus,
            standardError: try String(contentsOf: errors, encoding: .utf8))
    }
}
