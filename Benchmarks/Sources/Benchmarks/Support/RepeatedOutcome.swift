/// One scenario run several times, each in a fresh process (`--repeat N`), reported as one: every
/// `RESULT` is the median of the runs' values, each run's table is kept, and a `RUNS` line per
/// figure gives the values the median came from, so anyone can see how far they spread.
///
/// A median of whole runs, not of rounds pooled across runs: what moves between runs (where the
/// server's connections land, how warm the machine is, what else it is doing) is exactly what a
/// single run cannot show, and one bad run then cannot pull a figure the way it moves a mean.
enum RepeatedOutcome {
    /// `runs` (at least one) as one outcome: the first run's title and table, the others' tables
    /// as notes, medians for results, and every run's violations.
    static func combine(_ runs: [ScenarioOutcome]) -> ScenarioOutcome {
        guard var combined = runs.first else { preconditionFailure("a scenario runs at least once") }
        guard runs.count > 1 else { return combined }
        combined.title += " — median of \(runs.count) runs in fresh processes; run 1's table"
        for (index, run) in runs.enumerated().dropFirst() {
            combined.notes.append("run \(index + 1)'s table:\n" + run.table.render())
        }
        combined.results = combined.results.map { first in
            let values = runs.compactMap { run in run.results.first { $0.name == first.name }?.value }
            return ScenarioOutcome.Result(name: first.name, value: median(of: values), runs: values)
        }
        combined.violations = runs.enumerated().flatMap { index, run in
            run.violations.map { "run \(index + 1): \($0)" }
        }
        return combined
    }

    /// The median of `values` with as many decimals as the first has; a value that is not a
    /// number (a figure that was not measured) leaves the first run's value as it was.
    static func median(of values: [String]) -> String {
        let numbers = values.compactMap(Double.init)
        guard let first = values.first, numbers.count == values.count else { return values.first ?? "" }
        let decimals = first.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        return Format.number(Statistics.median(numbers), decimals: decimals)
    }
}
