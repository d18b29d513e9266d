import Foundation

/// Scenario `instructions`: the library's own work per send as CPU instructions, counted by
/// `valgrind --tool=callgrind` over the `profile-library` and `profile-baseline` loops. Unlike time,
/// an instruction count does not move with whatever else the two cores are doing, so it is the
/// figure to compare between runs on a busy machine.
///
/// Each loop runs twice, with `n` and `3n` sends, and the difference is divided by `2n`: what the
/// process does once (start-up, the first send's metadata lookups) cancels out. Hash seeds are
/// fixed so that dictionaries probe alike in every run.
struct InstructionCountScenario {
    /// Small counts.
    var quick: Bool

    /// The action counts measured, as in the `pipeline` scenario.
    private static let actionCounts = [0, 4]

    private var sends: Int { quick ? 100 : 1_000 }

    func run() async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome(
            title: "Instructions per send (valgrind --tool=callgrind, in-memory session)",
            table: TextTable(header: ["actions", "hand-written", "ECNetworking", "overhead"]))
        guard let valgrind = await Self.tool("valgrind", packages: ["valgrind"]),
            let strip = await Self.tool("strip", packages: ["binutils"])
        else {
            outcome.notes.append(
                "valgrind or strip is missing and could not be installed (Benchmarks/scripts/ensure-tool.sh): "
                    + "instructions were not counted.")
            return outcome
        }
        // A tool that fails leaves the figure unmeasured, which is reported, not fatal: the
        // benchmark's exit status is for the library's invariants.
        do {
            try await count(valgrind: valgrind, strip: strip, into: &outcome)
        } catch {
            outcome.notes.append("instructions were not counted: \(error)")
            return outcome
        }
        outcome.notes.append(
            "per send = (instructions of \(3 * sends) sends − of \(sends) sends) / \(2 * sends); "
                + "the library in its default configuration (coalescing off, a 60 s timeout), like `pipeline`.")
        return outcome
    }

    /// Counts both loops at every action count into `outcome`.
    private func count(valgrind: URL, strip: URL, into outcome: inout ScenarioOutcome) async throws {
        let copy = try await Self.strippedCopy(using: strip)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        for actions in Self.actionCounts {
            let baseline = try await instructionsPerSend(valgrind, copy, loop: "profile-baseline", actions: actions)
            let library = try await instructionsPerSend(valgrind, copy, loop: "profile-library", actions: actions)
            outcome.table.add(
                "\(actions)", Format.integer(baseline), Format.integer(library), Format.integer(library - baseline))
            outcome.result("pipeline_\(actions)_actions_instructions", Format.integer(library))
            outcome.result("pipeline_\(actions)_actions_overhead_instructions", Format.integer(library - baseline))
        }
    }

    /// Where `command` is, installing `packages` from Debian first when it is missing.
    private static func tool(_ command: String, packages: [String]) async -> URL? {
        let paths = ["/usr/bin/\(command)", "/usr/local/bin/\(command)"]
        if let found = ChildProcess.executable(among: paths) { return found }
        _ = await ChildProcess.runScript("ensure-tool.sh", [command] + packages)
        return ChildProcess.executable(among: paths)
    }

    /// This executable, with the allocation counter's library it loads from beside it, copied
    /// without debug information: valgrind 3.19 stops on the DWARF the Swift compiler emits.
    private static func strippedCopy(using strip: URL) async throws -> URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ecnetworking-instructions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let siblings = try FileManager.default.contentsOfDirectory(
            at: executable.deletingLastPathComponent(), includingPropertiesForKeys: nil)
        for library in siblings where library.lastPathComponent.hasPrefix("libMallocInterposer") {
            try FileManager.default.copyItem(
                at: library, to: directory.appendingPathComponent(library.lastPathComponent))
        }
        let copy = directory.appendingPathComponent("Benchmarks")
        try FileManager.default.copyItem(at: executable, to: copy)
        let stripped = try await ChildProcess.run(strip, ["--strip-debug", copy.path])
        guard stripped.status == 0 else { throw BenchmarkError.toolFailed("strip", stripped.output) }
        return copy
    }

    /// The instructions one send of `loop` with `actions` actions costs.
    private func instructionsPerSend(_ valgrind: URL, _ executable: URL, loop: String, actions: Int) async throws
        -> Double
    {
        let few = try await instructions(valgrind, executable, loop: loop, actions: actions, sends: sends)
        let many = try await instructions(valgrind, executable, loop: loop, actions: actions, sends: 3 * sends)
        return Double(many - few) / Double(2 * sends)
    }

    private func instructions(_ valgrind: URL, _ executable: URL, loop: String, actions: Int, sends: Int)
        async throws -> Int
    {
        let result = try await ChildProcess.run(
            valgrind,
            [
                "--tool=callgrind", "--callgrind-out-file=/dev/null", executable.path, "--only", loop,
                "--iterations", "\(sends)", "--actions", "\(actions)",
                // The library's default configuration, as in `pipeline`: coalescing is opt-in.
                "--no-coalescing",
            ],
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        // callgrind ends with "==pid== Collected : <instructions>".
        guard result.status == 0,
            let line = result.output.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = line.split(separator: " ").last.flatMap({ Int($0) })
        else { throw BenchmarkError.toolFailed("valgrind", String(result.output.suffix(2_000))) }
        return count
    }
}
