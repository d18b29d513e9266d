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
        let child = try await ChildProcess.run(
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]),
            ["--only", scenario.rawValue, "--child"] + (quick ? ["--quick"] : []),
            capturesStandardError: false)
        let line = child.output.split(separator: "\n").last { $0.hasPrefix(outcomePrefix) }
        guard child.status == 0, let line else {
            throw BenchmarkError.scenarioProcessFailed(status: child.status)
        }
        return try JSONDecoder().decode(ScenarioOutcome.self, from: Data(line.dropFirst(outcomePrefix.count).utf8))
    }

    /// Prints `outcome` as the line ``run(_:quick:)`` reads.
    static func hand(_ outcome: ScenarioOutcome) throws {
        let json = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
        print(outcomePrefix + json)
    }
}
