import ECNetworking

/// Scenario 4: what logging costs when it writes nowhere. The 4-action pipeline of scenario 2
/// with `logging: true` and `logSink = .discard`, so what is measured is building the log lines
/// (redaction, header lines, body preview, the cURL command), not printing them.
struct LoggingScenario {
    /// Small counts.
    var quick: Bool

    /// Measures the baseline and the pipeline with and without logging, interleaved.
    func run() async throws -> ScenarioOutcome {
        let session = InMemoryEndpoint.makeSession()
        let baseURL = InMemoryEndpoint.baseURL
        let variants = [
            PipelineVariant(
                name: "hand-written, 4 headers",
                loop: BaselineLoop(session: session, baseURL: baseURL, actionCount: 4)),
            PipelineVariant(
                name: "ECNetworking, 4 actions, logging off",
                loop: LibraryLoop(session: session, baseURL: baseURL, actionCount: 4)),
            PipelineVariant(
                name: "ECNetworking, 4 actions, logging to .discard",
                loop: LibraryLoop(session: session, baseURL: baseURL, actionCount: 4) {
                    $0.logging = true
                    $0.logSink = .discard
                }),
        ]
        let plan = PipelineMeasurement.Plan(quick: quick)
        let figures = try await PipelineMeasurement.measure(variants, plan: plan)

        var outcome = ScenarioOutcome(
            title: "4. Logging cost, in-memory session (\(plan.iterations) sends × \(plan.rounds) rounds)",
            table: TextTable(header: [
                "variant", "CPU ns/send", "wall ns/send", "allocs/send", "bytes/send", "Δ CPU ns vs baseline",
            ])
        )
        for (variant, figure) in zip(variants, figures) {
            outcome.table.add(
                variant.name,
                Format.integer(figure.nanoseconds),
                Format.integer(figure.wallNanoseconds),
                Format.number(figure.allocations),
                Format.integer(figure.allocatedBytes),
                Format.signed(figure.overheadNanoseconds(over: figures[0]), decimals: 0)
            )
        }
        let loggingNanoseconds = figures[2].overheadNanoseconds(over: figures[1])
        let loggingAllocations = figures[2].allocations - figures[1].allocations
        outcome.result("logging_overhead_ns", Format.number(loggingNanoseconds))
        outcome.result(
            "logging_overhead_wall_ns", Format.number(figures[2].overheadWallNanoseconds(over: figures[1])))
        outcome.result("logging_overhead_allocs", Format.number(loggingAllocations, decimals: 2))
        outcome.result("logging_4_actions_overhead_ns", Format.number(figures[2].overheadNanoseconds(over: figures[0])))
        outcome.notes.append(
            "logging_overhead = logging to .discard minus logging off: \(Format.integer(loggingNanoseconds)) ns, "
                + "\(Format.number(loggingAllocations)) allocations per send (two entries: request with cURL line, "
                + "response with body preview).")
        return outcome
    }
}
