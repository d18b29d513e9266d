import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if Metrics
    import MetricsTestKit
#endif
#if Tracing
    import Tracing
#endif

/// Everything a cell of the promise matrix can see of a send besides its result: the log lines
/// (with cURL lines and body previews), the metrics hook's calls, the failure actions' calls, the
/// HAR archive a recorder keeps, and with the traits on, the spans and the swift-metrics dimensions.
final class MatrixObservers: Sendable {
    let logLines = Log<String>()
    let archive = HTTPArchiveRecorder()
    let metrics = Log<RequestMetrics>()
    let failures = Log<String>()
    #if Tracing
        let tracer = RecordingTracer()
    #endif
    #if Metrics
        let metricsFactory = TestMetrics()
    #endif

    /// Turns on every observer `configuration` has: logging at every level with cURL lines and
    /// long body previews, the metrics hook, and with the traits on, the tracer and the metrics
    /// factory.
    func observe(_ configuration: inout NetworkConfiguration) {
        configuration.logging = true
        let logLines = logLines
        configuration.loggingOptions = LoggingOptions(
            sink: LogSink { logLines.append($0) }, bodyPreviewLimit: 64 * 1024, includesCURLCommand: true,
            minimumLevel: .debug)
        let metrics = metrics
        configuration.metricsHandler = { metrics.append($0) }
        configuration.archiveRecorder = archive
        #if Tracing
            configuration.tracer = tracer
        #endif
        #if Metrics
            configuration.metricsFactory = metricsFactory
        #endif
    }

    /// Every header, the URL and the body of `response` and of its request, as they are.
    private static func fields(of response: NetworkResponse) -> String {
        var fields = response.headers.fields.map { "\($0.name): \($0.value)" }
        fields.append(response.url?.absoluteString ?? "")
        fields.append(String(decoding: response.body, as: UTF8.self))
        if let request = response.request {
            fields += request.headers.fields.map { "\($0.name): \($0.value)" }
            fields.append(request.url.absoluteString)
        }
        if let original = response.httpURLResponse {
            fields += original.allHeaderFields.map { "\($0.key): \($0.value)" }
            fields.append(original.url?.absoluteString ?? "")
        }
        return fields.joined(separator: "\n")
    }

    /// The action that records every failure the network reports to its failure actions.
    var failureAction: some RequestFailedAction {
        FailureRecorder(failures: failures)
    }

    /// Everything observed, as text to search: log lines, the metrics hook's values (described and
    /// dumped), the failure actions' errors, the HAR archive, span names, attributes, events and
    /// errors, and metric labels and dimensions.
    var everything: String {
        var text = logLines.all.joined(separator: "\n")
        text += "\n" + String(decoding: (try? archive.archive.encoded()) ?? Data(), as: UTF8.self)
        for value in metrics.all {
            text += "\n\(value)\n\(String(reflecting: value))\n"
            dump(value, to: &text)
            // What a hook reads field by field, which no description redacts: the error's response.
            if let response = (value.error as? NetworkError)?.response { text += "\n" + Self.fields(of: response) }
        }
        text += failures.all.joined(separator: "\n")
        #if Tracing
            for span in tracer.spans.all {
                text += "\n\(span.operationName) \(span.errors)"
                span.attributes.forEach { name, value in text += "\n\(name)=\(value)" }
            }
        #endif
        #if Metrics
            let labelled: [(String, [(String, String)])] =
                metricsFactory.counters.map { ($0.label, $0.dimensions) }
                + metricsFactory.timers.map { ($0.label, $0.dimensions) }
                + metricsFactory.recorders.map { ($0.label, $0.dimensions) }
                + metricsFactory.meters.map { ($0.label, $0.dimensions) }
            for (label, dimensions) in labelled {
                text += "\n\(label) " + dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            }
        #endif
        return text
    }
}

/// Records every rendering of each failed request and its error (see `renderings(of:)`).
private struct FailureRecorder: RequestFailedAction {
    let failures: Log<String>

    func requestFailed(_ request: NetworkRequest, error: any Error) {
        let texts = renderings(of: request).merging(renderings(of: error)) { request, error in request + "\n" + error }
        failures.append(texts.values.sorted().joined(separator: "\n"))
    }
}

/// Checks that a send of `way` to `route` ended once, as `ends` recorded it (`"status N"` or
/// `"error …"`): with the status for a generated OpenAPI client, which gets every status as a
/// response, with an error for a failing route otherwise; and that the failure actions were told
/// exactly when the route fails.
func expectOneEnd(
    _ ends: [String], of way: SendWay, to route: MatrixServer.Route, failureCalls: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let fails = route == .fail
    let expected = way.isOpenAPI ? (fails ? "status 401" : "status 200") : (fails ? "error" : "status 200")
    #expect(ends.count == 1, "\(way) to /\(route.rawValue) ended \(ends.count) times", sourceLocation: sourceLocation)
    #expect(
        ends.first?.hasPrefix(expected) == true, "\(way) to /\(route.rawValue): \(ends)", sourceLocation: sourceLocation
    )
    #expect(
        failureCalls == (fails ? 1 : 0), "\(way) to /\(route.rawValue): \(failureCalls) failure calls",
        sourceLocation: sourceLocation)
}
