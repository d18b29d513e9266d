import Foundation

/// Scenario `instructions`: the library's own work per send as CPU instructions, counted by
/// `valgrind --tool=callgrind` over the `profile-library` and `profile-baseline` loops. Unlike time,
/// an instruction count does not move with whatever else the two cores are doing, so it is the
/// figure to compare between runs on a busy machine.
///
/// Each loop runs twice, with `n` and `3n` sends, and the difference is divided by `2n`: what the
/// process does once (start-up, the first send's metadata lookups) cancels out. Hash seeds are
/// fixed so that dictionaries probe alike in every run. The same runs count the calls to the
/// concurrency runtime's task allocator, which a malloc counter does not see.
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
                "task allocs, ECNetworking",
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
                + "the library in its default configuration (coalescing off, a 60 s timeout), like `pipeline`.")
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
                Format.number(library.taskAllocations, decimals: 1))
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

    /// What one send of `loop` with `actions` actions costs: instructions, and calls to the
    /// concurrency runtime's task allocator (`swift_task_alloc`, which the malloc counter of the
    /// `pipeline` scenario does not see: it hands out memory from slabs it already holds).
    private func costPerSend(_ valgrind: URL, _ executable: URL, loop: String, actions: Int) async throws
        -> (instructions: Double, taskAllocations: Double)
    {
        let few = try await profile(valgrind, executable, loop: loop, actions: actions, sends: sends)
        let many = try await profile(valgrind, executable, loop: loop, actions: actions, sends: 3 * sends)
        return (
            Double(many.instructions - few.instructions) / Double(2 * sends),
            Double(many.taskAllocations - few.taskAllocations) / Double(2 * sends)
        )
    }

    private func profile(_ valgrind: URL, _ executable: URL, loop: String, actions: Int, sends: Int)
        async throws -> (instructions: Int, taskAllocations: Int)
    {
        let output = executable.deletingLastPathComponent().appendingPathComponent("callgrind-\(loop)-\(sends).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await ChildProcess.run(
            valgrind,
            [
                "--tool=callgrind", "--callgrind-out-file=\(output.path)", executable.path, "--only", loop,
                "--iterations", "\(sends)", "--actions", "\(actions)",
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
        return (count, Self.calls(to: "swift_task_alloc", in: profile))
    }

    /// How many calls `profile` (a callgrind output file) records to the function `name`.
    ///
    /// Callgrind names a function once, as `(id) name`, and by `(id)` alone after that; a call is
    /// a `cfn=` line naming the callee followed by a `calls=<count> …` line.
    static func calls(to name: String, in profile: String) -> Int {
        var ids: Set<Substring> = []
        var callee: Substring?
        var total = 0
        for line in profile.split(separator: "\n") {
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let reference = line.drop { $0 != "=" }.dropFirst()
                let id = reference.prefix { $0 != " " }
                if reference.dropFirst(id.count).drop(while: { $0 == " " }) == name { ids.insert(id) }
                callee = line.hasPrefix("cfn=") ? id : nil
            } else if line.hasPrefix("calls="), let callee {
                if ids.contains(callee), let count = Int(line.dropFirst(6).prefix { $0 != " " }) { total += count }
            } else if !line.isEmpty, line.first?.isNumber == true || line.hasPrefix("+") || line.hasPrefix("-") {
                // A cost line: the call it belonged to, if any, is complete.
                callee = nil
            }
        }
        return total
    }
}
