/// Scenario 2: what the library's pipeline costs per send without sockets, with 0, 4 and 16
/// actions, against a hand-written client making the same request through the same in-memory
/// session. The bars are ratios of CPU time per send to the baseline's in the same round: ≤ 1.10
/// with 0 actions, ≤ 1.15 with 4, and ≤ 10 mallocs over the baseline with 4 (see
/// Benchmarks/README.md).
struct PipelineScenario {
    /// Small counts.
    var quick: Bool

    /// The action counts measured, each against its own baseline (which sends the same headers).
    static let actionCounts = [0, 4, 16]

    /// Measures every variant side by side and reports the differences from the baselines.
    func run() async throws -> ScenarioOutcome {
        let session = InMemoryEndpoint.makeSession()
        let baseURL = InMemoryEndpoint.baseURL
        var variants: [PipelineVariant] = []
        for count in Self.actionCounts {
            variants.append(
                PipelineVariant(
                    name: "hand-written, \(count) headers",
                    loop: BaselineLoop(session: session, baseURL: baseURL, actionCount: count)))
            variants.append(
                PipelineVariant(
                    name: "ECNetworking, \(count) actions",
                    loop: LibraryLoop(session: session, baseURL: baseURL, actionCount: count)))
        }
        // Two diagnostic rows, to tell how much of the 4-action overhead coalescing and the 60 s
        // timeout (a deadline per attempt) cost. Coalescing is opt-in now, so the first row is the
        // default configuration again; it keeps its name so figures compare across runs.
        variants.append(
            PipelineVariant(
                name: "ECNetworking, 4 actions, no coalescing",
                loop: LibraryLoop(session: session, baseURL: baseURL, actionCount: 4) {
                    $0.coalescesIdenticalRequests = false
                }))
        variants.append(
            PipelineVariant(
                name: "ECNetworking, 4 actions, no coalescing, no timeout",
                loop: LibraryLoop(session: session, baseURL: baseURL, actionCount: 4) {
                    $0.coalescesIdenticalRequests = false
                    $0.timeout = nil
                }))
        // A diagnostic row: the hand-written client made to keep the library's promises, to tell
        // what those cost any client from what is the library's own (compared with the lean
        // client without headers).
        variants.append(
            PipelineVariant(
                name: "hand-written with the guarantees, 0 headers",
                loop: GuardedBaselineLoop(session: session, baseURL: baseURL, actionCount: 0)))

        let plan = PipelineMeasurement.Plan(quick: quick)
        let figures = try await PipelineMeasurement.measure(variants, plan: plan)
        return report(variants: variants, figures: figures, plan: plan)
    }

    private func report(variants: [PipelineVariant], figures: [PipelineFigures], plan: PipelineMeasurement.Plan)
        -> ScenarioOutcome
    {
        var outcome = ScenarioOutcome(
            title: "2. Pipeline cost, in-memory session (\(plan.iterations) sends × \(plan.rounds) rounds, "
                + "allocations over \(plan.allocationIterations) sends)",
            table: TextTable(header: [
                "variant", "CPU ns/send", "wall ns/send", "allocs/send", "bytes/send", "Δ CPU ns", "Δ wall ns",
                "Δ allocs",
            ])
        )
        let baseline4 = figures[2]
        let guardedIndex = variants.count - 1
        for (index, variant) in variants.enumerated() {
            let figure = figures[index]
            // Library rows are compared with the baseline just before them; the diagnostic rows
            // with the 4-header baseline, but the guarded client with the lean one without headers.
            let isLibrary = index.isMultiple(of: 2) == false || index >= 2 * Self.actionCounts.count
            let baseline =
                if index < 2 * Self.actionCounts.count {
                    figures[index - index % 2]
                } else if index == guardedIndex {
                    figures[0]
                } else {
                    baseline4
                }
            outcome.table.rows.append([
                variant.name,
                Format.integer(figure.nanoseconds),
                Format.integer(figure.wallNanoseconds),
                Format.number(figure.allocations),
                Format.integer(figure.allocatedBytes),
                isLibrary ? Format.signed(figure.overheadNanoseconds(over: baseline), decimals: 0) : "",
                isLibrary ? Format.signed(figure.overheadWallNanoseconds(over: baseline), decimals: 0) : "",
                isLibrary ? Format.signed(figure.allocations - baseline.allocations) : "",
            ])
        }

        for (position, count) in Self.actionCounts.enumerated() {
            let baseline = figures[2 * position]
            let library = figures[2 * position + 1]
            let overheadNanoseconds = library.overheadNanoseconds(over: baseline)
            let overheadAllocations = library.allocations - baseline.allocations
            outcome.result("pipeline_\(count)_actions_ratio", Format.number(library.ratio(over: baseline), decimals: 3))
            outcome.result("pipeline_baseline_\(count)_headers_ns", Format.number(baseline.nanoseconds))
            outcome.result("pipeline_\(count)_actions_ns", Format.number(library.nanoseconds))
            outcome.result("pipeline_\(count)_actions_overhead_ns", Format.number(overheadNanoseconds))
            outcome.result(
                "pipeline_\(count)_actions_overhead_wall_ns",
                Format.number(library.overheadWallNanoseconds(over: baseline)))
            outcome.result("pipeline_\(count)_actions_overhead_allocs", Format.number(overheadAllocations, decimals: 2))
            outcome.result("pipeline_\(count)_actions_allocs", Format.number(library.allocations, decimals: 2))
        }
        let noCoalescing = figures[2 * Self.actionCounts.count]
        let noTimeout = figures[2 * Self.actionCounts.count + 1]
        outcome.result(
            "pipeline_4_actions_no_coalescing_overhead_ns",
            Format.number(noCoalescing.overheadNanoseconds(over: baseline4)))
        outcome.result(
            "pipeline_4_actions_no_coalescing_overhead_allocs",
            Format.number(noCoalescing.allocations - baseline4.allocations, decimals: 2))
        outcome.result(
            "pipeline_4_actions_no_coalescing_no_timeout_overhead_ns",
            Format.number(noTimeout.overheadNanoseconds(over: baseline4)))
        outcome.result(
            "pipeline_4_actions_no_coalescing_no_timeout_overhead_allocs",
            Format.number(noTimeout.allocations - baseline4.allocations, decimals: 2))

        // Read once for the RESULT lines and the note below.
        let guardedRatio = Format.number(figures[guardedIndex].ratio(over: figures[0]), decimals: 3)
        let overGuardedRatio = Format.number(figures[1].ratio(over: figures[guardedIndex]), decimals: 3)
        outcome.result("pipeline_guarded_baseline_0_ratio", guardedRatio)
        outcome.result("pipeline_0_actions_over_guarded_baseline_ratio", overGuardedRatio)

        // The cost of one more action: how the overhead over the baseline grows from 0 to 16
        // actions, so the headers the actions add (which the baseline sends too) are not counted.
        let overhead0 = (
            ns: figures[1].overheadNanoseconds(over: figures[0]),
            allocs: figures[1].allocations - figures[0].allocations
        )
        let overhead16 = (
            ns: figures[5].overheadNanoseconds(over: figures[4]),
            allocs: figures[5].allocations - figures[4].allocations
        )
        let perAction = (overhead16.ns - overhead0.ns) / 16
        let perActionAllocations = (overhead16.allocs - overhead0.allocs) / 16
        outcome.result("pipeline_ns_per_extra_action", Format.number(perAction))
        outcome.result("pipeline_allocs_per_extra_action", Format.number(perActionAllocations, decimals: 2))

        let ratio0 = figures[1].ratio(over: figures[0])
        let ratio4 = figures[3].ratio(over: baseline4)
        let allocations4 = figures[3].allocations - baseline4.allocations
        outcome.notes.append(
            "ratio = the library's CPU time per send ÷ the hand-written client's with the same headers, in the same "
                + "round; the median over the rounds (RESULT pipeline_*_actions_ratio). Nanoseconds are this "
                + "machine's and move 2–3× between machines of the same kind; ratios do not.")
        for (position, count) in Self.actionCounts.enumerated() {
            let rounds = figures[2 * position + 1].roundRatios(over: figures[2 * position])
            outcome.notes.append(
                "\(count) actions, ratio per round: "
                    + rounds.map { Format.number($0, decimals: 3) }.joined(separator: " "))
        }
        outcome.notes.append(
            "The hand-written client with the guarantees also registers each send where a cancel-all would reach "
                + "it, waits through a one-shot call a cancellation handler can end, notes a 60 s deadline in a shared "
                + "table, reads the clock twice and checks the Content-Type: "
                + "\(guardedRatio)× the lean client "
                + "(RESULT pipeline_guarded_baseline_0_ratio); the library with no actions takes "
                + "\(overGuardedRatio)× its time "
                + "(RESULT pipeline_0_actions_over_guarded_baseline_ratio). A diagnostic, not a bar.")
        outcome.notes.append(
            "ns = process CPU time per send (all threads), median over the rounds; the RESULT *_ns figures use it, "
                + "*_wall_ns use wall time, which also counts time the 2 cores spent on other processes.")
        outcome.notes.append(
            "Δ = the library row minus the hand-written row with the same headers (diagnostic rows: minus "
                + "the 4-header baseline), within each round, median over the rounds.")
        outcome.notes.append(
            "Per extra action (0 → 16 actions): \(Format.number(perAction)) ns, "
                + "\(Format.number(perActionAllocations, decimals: 2)) allocations.")
        outcome.notes.append(
            "Bars: 0 actions ≤ 1.10 × the baseline → \(Format.number(ratio0, decimals: 3)) (\(ratio0 <= 1.10 ? "met" : "MISSED")); "
                + "4 actions ≤ 1.15 × → \(Format.number(ratio4, decimals: 3)) (\(ratio4 <= 1.15 ? "met" : "MISSED")) "
                + "and ≤ 10 mallocs over it → \(Format.number(allocations4)) (\(allocations4 <= 10 ? "met" : "MISSED")); "
                + "task allocations, which the malloc counter does not see, are counted by the `instructions` scenario."
        )
        return outcome
    }
}
