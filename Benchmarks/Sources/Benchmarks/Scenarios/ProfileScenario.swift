/// A single send loop through the in-memory session and nothing else, for
/// `valgrind --tool=callgrind`: run it with `--only profile-library` and `--only profile-baseline`
/// and subtract, and what is left is the library's own work per send.
struct ProfileScenario {
    /// Whether to run the library's loop (or the hand-written one).
    var library: Bool
    /// The sends.
    var iterations: Int
    /// The actions (or, for the baseline, the headers those actions would add).
    var actionCount: Int
    /// Whether the library coalesces identical GETs. Opt-in in the library; on here unless
    /// `--no-coalescing`, so that profiles stay comparable with those made before it was.
    var coalescing = true
    /// Whether the library keeps its default 60 s timeout.
    var timeout = true
    /// Whether the library logs, to `.discard`.
    var logging = false

    /// Runs the loop once, without warm-up, so callgrind sees only what is asked for.
    func run() async throws -> ScenarioOutcome {
        let session = InMemoryEndpoint.makeSession()
        let baseURL = InMemoryEndpoint.baseURL
        let loop: any PipelineLoop =
            library
            ? LibraryLoop(session: session, baseURL: baseURL, actionCount: actionCount) {
                [coalescing, timeout, logging] in
                $0.coalescesIdenticalRequests = coalescing
                if !timeout { $0.timeout = nil }
                if logging {
                    $0.logging = true
                    $0.logSink = .discard
                }
            }
            : BaselineLoop(session: session, baseURL: baseURL, actionCount: actionCount)
        let name = library ? "ECNetworking, \(actionCount) actions" : "hand-written, \(actionCount) headers"
        let clock = ContinuousClock()
        let start = clock.now
        try await loop.run(iterations: iterations)
        let nanoseconds = (clock.now - start).nanoseconds / Double(max(iterations, 1))
        var outcome = ScenarioOutcome(
            title: "Profile loop (\(iterations) sends, no warm-up)",
            table: TextTable(header: ["variant", "ns/send"]))
        outcome.table.add(name, Format.integer(nanoseconds))
        outcome.result("profile_\(library ? "library" : "baseline")_ns", Format.number(nanoseconds))
        return outcome
    }
}
