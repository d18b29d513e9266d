import Foundation

/// Runs one scenario in a fresh process of this same executable and reads back its outcome.
///
/// Why a process each: one scenario's heap, threads and connections must not weigh on the next.
/// It once mattered a lot: when the library armed a Dispatch timer per send, a million sends held
/// 1.6 GB for a minute and halved the speed of the scenario after. A fresh process starts every
/// scenario alike.
enum ScenarioProcess {
    /// The prefix of the one line of the child's standard output that carries the outcome.
    static let outcomePrefix = "OUTCOME "

    /// Runs `scenario` in a child process; its progress goes to this process's standard error.
    static func run(_ scenario: Options.Scenario, quick: Bool) async throws -> ScenarioOutcome {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--only", scenario.rawValue, "--child"] + (quick ? ["--quick"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Read on a Dispatch thread, not a cooperative one: reading blocks until the child exits.
        let data = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // Read to the end before waiting, or a child filling the pipe could never exit.
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .last { $0.hasPrefix(outcomePrefix) }
        guard process.terminationStatus == 0, let line else {
            throw BenchmarkError.scenarioProcessFailed(status: process.terminationStatus)
        }
        return try JSONDecoder().decode(ScenarioOutcome.self, from: Data(line.dropFirst(outcomePrefix.count).utf8))
    }

    /// Prints `outcome` as the line ``run(_:quick:)`` reads.
    static func hand(_ outcome: ScenarioOutcome) throws {
        let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        print(outcomePrefix + json)
    }
}
