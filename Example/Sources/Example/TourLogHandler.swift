import Logging

/// A swift-log handler that writes each record of the library's log to the tour's console, as
/// `--verbose` shows it: the level and message, the structured fields on one line, then the
/// detail lines (headers, body preview, cURL). The library redacted all of it before it got here.
struct TourLogHandler: LogHandler {
    /// Every level: the library's own `logging` switch and the sink decide what is logged.
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    private let console: TourConsole

    init(console: TourConsole) {
        self.console = console
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        fields.merge(event.metadata ?? [:]) { _, record in record }
        let details = fields.removeValue(forKey: "details")
        var lines = ["[\(event.level)] \(event.message)"]
        let shown = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if !shown.isEmpty { lines.append("  " + shown.joined(separator: " ")) }
        if case .array(let detailLines)? = details {
            lines += detailLines.map { "  \($0)" }
        }
        console.log(lines.joined(separator: "\n"))
    }
}
