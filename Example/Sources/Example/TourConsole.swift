import DemoClient

/// Where the tour writes: standard output in the executable, a collector in tests.
///
/// Every line goes through one closure, so tests see exactly what a person would.
struct TourConsole: Sendable {
    /// Writes one line.
    let write: @Sendable (String) -> Void

    /// Prints to standard output.
    static let standardOutput = TourConsole { print($0) }

    /// A step's heading, such as `== 3. Create a user`.
    func step(_ number: Int, _ title: String) {
        write("")
        write("== \(number). \(title)")
    }

    /// One action stage, as the tracer saw it.
    func trace(_ event: StageEvent) {
        write("    \(event)")
    }

    /// One entry of the library's own log, indented under the trace.
    func log(_ entry: String) {
        for line in entry.split(separator: "\n", omittingEmptySubsequences: false) {
            write("      | \(line)")
        }
    }

    /// A typed result the step obtained.
    func result(_ text: String) {
        write("  → \(text)")
    }

    /// `duration` in whole milliseconds, such as `1002 ms`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// Something the step verified.
    func passed(_ text: String) {
        write("  ✓ \(text)")
    }
}
