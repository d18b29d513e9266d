/// What one scenario reports: its table and notes for people, `RESULT` lines for scripts, and any
/// broken invariant, which makes the whole run exit non-zero. `Codable`, because each scenario runs
/// in a process of its own and hands it back as JSON (see ``ScenarioProcess``).
struct ScenarioOutcome: Sendable, Codable {
    /// One `RESULT <name> <value>` line.
    struct Result: Sendable, Codable {
        /// The figure's name, such as `loopback_seq_ratio`.
        var name: String
        /// The figure, already formatted.
        var value: String
        /// With `--repeat N`, each run's value, of which ``value`` is the median; empty otherwise.
        var runs: [String] = []
    }

    /// The heading of the scenario's section.
    var title: String
    /// The figures.
    var table: TextTable
    /// Lines printed under the table: how it was measured, which bar was missed.
    var notes: [String] = []
    /// The machine-readable figures.
    var results: [Result] = []
    /// Invariants that did not hold (more than 64 in flight, a failed request, …).
    var violations: [String] = []

    /// Adds a `RESULT` line.
    mutating func result(_ name: String, _ value: String) {
        results.append(Result(name: name, value: value))
    }
}
