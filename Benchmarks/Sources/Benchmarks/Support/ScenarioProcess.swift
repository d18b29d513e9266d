import Foundation

/// Runs one scenario, or one measurement of one, in a fresh process of this same executable and
/// reads back what it found.
///
/// Why a process each: one scenario's heap, threads and connections must not weigh on the next.
/// It once mattered a lot: when the library armed a Dispatch timer per send, a million sends held
/// 1.6 GB for a minute and halved the speed of the scenario after. A fresh process starts every
/// scenario alike, and gives a memory measurement a heap no other measurement has grown.
enum ScenarioProcess {
    /// The prefix of the one line of the child's standard output that carries the outcome.
    static let outcomePrefix = "OUTCOME "

    /// Runs `scenario` in a child process; its progress goes to this process's standard error.
    static func run(_ scenario: Options.Scenario, quick: Bool) async throws -> ScenarioOutcome {
        try await run(["--only", scenario.rawValue, "--child"] + (quick ? ["--quick"] : []), prefix: outcomePrefix)
    }

    /// Runs this executable with `arguments` and decodes the JSON on the last line of its standard
    /// output that starts with `prefix`, which the child printed with ``hand(_:prefix:)``.
    static func run<Value: Decodable>(_ arguments: [String], prefix: String) async throws -> Value {
        let child = try await ChildProcess.run(
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]), arguments,
            capturesStandardError: false)
        let line = child.output.split(separator: "\n").last { $0.hasPrefix(prefix) }
        guard child.status == 0, let line else {
            throw BenchmarkError.scenarioProcessFailed(status: child.status)
        }
        return try JSONDecoder().decode(Value.self, from: Data(line.dropFirst(prefix.count).utf8))
    }

    /// Prints `value` as the line ``run(_:prefix:)`` reads.
    static func hand(_ value: some Encodable, prefix: String = outcomePrefix) throws {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        print(prefix + json)
    }
}
