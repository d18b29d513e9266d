import Foundation

/// Scenario `instructions`: the library's own work per send as CPU instructions, counted by
/// `valgrind --tool=callgrind` over the `profile-library` and `profile-baseline` loops. Unlike time,
/// an instruction count does not move with whatever else the two cores are doing, so it is the
/// figure to compare between runs on a busy machine.
///
/// Each loop runs twice, with `n` and `3n` sends, and the difference is divided by `2n`: what the
/// process does once (start-up, the first send's metadata lookups) cancels out. Hash seeds are
/// fixed so that dictionaries probe alike in every run. The same runs count the calls to the
/// concurrency runtime's task allocator, which a malloc counter does not see, and the lines of
/// machine code a send runs: what time costs beyond instructions, since code that does not stay
/// in the instruction cache between sends is fetched again on every one.
struct InstructionCountScenario {
    /// Small counts.
    var quick: Bool

    /// The action counts measured, as in the `pipeline` scenario.
    private static let actionCounts = [0, 4]

    private var sends: Int { quick ? 100 : 1_000 }

    func run() async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome(
            title: "Instructions per send (valgrind --tool=callgrind, in-memory session)",
            table: TextTable(header: [
                "actions", "hand-written", "ECNetworking", "overhead", "ratio", "task allocs, hand-written",
                "task allocs, ECNetworking", "code lines, hand-written", "code lines, ECNetworking",
            ]))
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
                + "the library in its default configuration (coalescing off, a 60 s timeout), like `pipeline`. "
                + "Code lines: the 64-byte lines of machine code in which some instruction ran at least once a "
                + "send, in every object the process loaded (the send's instruction-cache footprint; a 32 KiB first-level "
                + "instruction cache holds 512 of them).")
        return outcome
    }

    /// Counts both loops at every action count into `outcome`.
    private func count(valgrind: URL, strip: URL, into outcome: inout ScenarioOutcome) async throws {
        let copy = try await Self.strippedCopy(using: strip)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        for actions in Self.actionCounts {
            let baseline = try await costPerSend(valgrind, copy, loop: "profile-baseline", actions: actions)
            let library = try await costPerSend(valgrind, copy, loop: "profile-library", actions: actions)
            let ratio = library.instructions / baseline.instructions
            outcome.table.add(
                "\(actions)", Format.integer(baseline.instructions), Format.integer(library.instructions),
                Format.integer(library.instructions - baseline.instructions), Format.number(ratio, decimals: 3),
                Format.number(baseline.taskAllocations, decimals: 1),
                Format.number(library.taskAllocations, decimals: 1), Format.integer(Double(baseline.codeLines)),
                Format.integer(Double(library.codeLines)))
            outcome.result("pipeline_\(actions)_actions_instructions", Format.integer(library.instructions))
            outcome.result(
                "pipeline_\(actions)_actions_overhead_instructions",
                Format.integer(library.instructions - baseline.instructions))
            outcome.result("pipeline_\(actions)_actions_instructions_ratio", Format.number(ratio, decimals: 3))
            outcome.result(
                "pipeline_\(actions)_actions_task_allocs", Format.number(library.taskAllocations, decimals: 1))
            outcome.result(
                "pipeline_\(actions)_actions_overhead_task_allocs",
                Format.number(library.taskAllocations - baseline.taskAllocations, decimals: 1))
            outcome.result("pipeline_\(actions)_actions_code_lines", Format.integer(Double(library.codeLines)))
            outcome.result(
                "pipeline_\(actions)_actions_overhead_code_lines",
                Format.integer(Double(library.codeLines - baseline.codeLines)))
            outcome.result(
                "pipeline_\(actions)_actions_code_lines_ratio",
                Format.number(Double(library.codeLines) / Double(baseline.codeLines), decimals: 3))
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

    /// What one send of `loop` with `actions` actions costs: instructions; calls to the
    /// concurrency runtime's task allocator (`swift_task_alloc`, which the malloc counter of the
    /// `pipeline` scenario does not see: it hands out memory from slabs it already holds); and the
    /// 64-byte lines of code that run on every send.
    private func costPerSend(_ valgrind: URL, _ executable: URL, loop: String, actions: Int) async throws
        -> SendCost
    {
        let few = try await profile(valgrind, executable, loop: loop, actions: actions, sends: sends)
        let many = try await profile(valgrind, executable, loop: loop, actions: actions, sends: 3 * sends)
        let taskAllocations = { (profile: CallgrindProfile) in profile.calls["swift_task_alloc"] ?? 0 }
        return SendCost(
            instructions: Double(many.instructions - few.instructions) / Double(2 * sends),
            taskAllocations: Double(taskAllocations(many.profile) - taskAllocations(few.profile)) / Double(2 * sends),
            codeLines: few.profile.linesRunEverySend(few: sends, comparedWith: many.profile, many: 3 * sends))
    }

    private func profile(_ valgrind: URL, _ executable: URL, loop: String, actions: Int, sends: Int)
        async throws -> (instructions: Int, profile: CallgrindProfile)
    {
        let output = executable.deletingLastPathComponent().appendingPathComponent("callgrind-\(loop)-\(sends).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await ChildProcess.run(
            valgrind,
            [
                // Counts by instruction, not by source line, for the lines of code a send runs.
                "--tool=callgrind", "--dump-instr=yes", "--callgrind-out-file=\(output.path)", executable.path,
                "--only", loop, "--iterations", "\(sends)", "--actions", "\(actions)",
                // The library's default configuration, as in `pipeline`: coalescing is opt-in.
                "--no-coalescing",
            ],
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        // callgrind ends with "==pid== Collected : <instructions>".
        guard result.status == 0,
            let line = result.output.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = line.split(separator: " ").last.flatMap({ Int($0) }),
            let profile = try? String(contentsOf: output, encoding: .utf8)
        else { throw BenchmarkError.toolFailed("valgrind", String(result.output.suffix(2_000))) }
        return (count, CallgrindProfile(profile))
    }
}

/// What one send costs, as ``InstructionCountScenario`` counts it.
private struct SendCost {
    /// Instructions per send.
    var instructions: Double
    /// Calls to the concurrency runtime's task allocator per send.
    var taskAllocations: Double
    /// The 64-byte lines of code run on every send (see ``CallgrindProfile/linesRunEverySend(few:comparedWith:many:)``).
    var codeLines: Int
}
