import Foundation

/// The built-in logging, installed by `NetworkConfiguration(logging: true)`: one of the observers
/// every send reports to (see ``SendObserver``), told of each attempt after the began actions and of
/// each response after the response-began actions, so it logs the request exactly as it was sent.
///
/// For each attempt it writes the request (method, URL, headers, body preview, a cURL command) and
/// the response (status, duration, headers, body preview), and a line for a send that failed,
/// however it failed: before a response, at validation, or while its streamed body arrived. The
/// secrets ``NetworkConfiguration/sensitiveData`` names are redacted everywhere: URLs, headers,
/// body previews, the cURL line and the failure line, whose error description shows the response
/// body through the same redaction.
///
/// Each entry reaches the sink as a ``NetworkLogEvent`` with a level (requests `debug`, answers
/// `info` or, from status 400, `warning`, failures `error`, cancellations `notice`) and the send's
/// id, the attempt number, method, redacted URL, status and duration; entries below
/// ``LoggingOptions/minimumLevel``, or below what the sink admits, are not built at all.
///
/// Stateless, so every send shares this one object as its observation.
final class LoggingObserver: SendObserver, SendObservation {
    let options: LoggingOptions
    private let redaction: Redaction

    init(options: LoggingOptions, redaction: Redaction) {
        self.options = options
        self.redaction = redaction
    }

    func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation {
        self
    }

    /// Logging needs no task-local context of its own around the send.
    var needsTaskContext: Bool { false }

    /// Logs the request as it goes on the wire (or joins an identical one on the wire).
    func attemptOnWire(_ request: NetworkRequest) {
        guard isEnabled(.debug) else { return }
        let url = redaction.url(request.url)
        var message = "--> \(Self.method(of: request)) \(url)"
        if request.customProperties[JoinedIdenticalRequest.self] {
            message += " (joined an identical request on the wire)"
        }
        var details = headerLines(request.headers)
        if case .data(let data, _)? = request.body?.content, !data.isEmpty {
            details.append("    body: \(preview(data, contentType: request.headers["Content-Type"]))")
        }
        if options.includesCURLCommand {
            details.append("    \(CURLCommand.render(request, redaction: redaction))")
        }
        emit(.debug, .request, message, details: details, request: request, url: url)
    }

    /// Logs the response head (and body, when gathered) as the response-began actions saw it.
    func responseArrived(request: NetworkRequest, response: NetworkResponse) {
        let level: NetworkLogEvent.Level = response.statusCode >= 400 ? .warning : .info
        guard isEnabled(level) else { return }
        let duration = response.timings.transport
        let milliseconds = Int((duration.seconds * 1000).rounded())
        let url = redaction.url(request.url)
        let message = "<-- \(response.statusCode) \(Self.method(of: request)) \(url) (\(milliseconds) ms)"
        var details = headerLines(response.headers)
        if !response.body.isEmpty {
            details.append("    body: \(preview(response.body, contentType: response.headers["Content-Type"]))")
        }
        emit(
            level, .response, message, details: details, request: request, url: url,
            statusCode: response.statusCode, duration: duration)
    }

    /// Logs a send that ended in an error, so transport failures and cancellations show up too.
    func sendEnded(_ metrics: RequestMetrics) {
        if let error = metrics.error { logFailure(of: metrics.request, error: error) }
    }

    private func logFailure(of request: NetworkRequest, error: any Error) {
        let isCancellation = (error as? NetworkError)?.isCancellation == true || error is CancellationError
        let level: NetworkLogEvent.Level = isCancellation ? .notice : .error
        guard isEnabled(level) else { return }
        let reason = redaction.describe(error)
        let url = redaction.url(of: request)
        let attempt = request.customProperties[SendAttempt.self]
        emit(
            level, .failure, "<-- failed \(Self.method(of: request)) \(url): \(reason)", request: request, url: url,
            statusCode: (error as? NetworkError)?.response?.statusCode,
            duration: attempt.map { SendClock.now - $0.sendStart })
    }

    /// Logs an answer served from a response store, which no action stage sees.
    func storedAnswer(_ request: NetworkRequest, age: Duration, reason: String) {
        guard isEnabled(.info) else { return }
        let seconds = Int(age.components.seconds)
        let url = redaction.url(of: request)
        options.sink.log(
            NetworkLogEvent(
                level: .info, kind: .storedAnswer,
                message: "<-- stored \(Self.method(of: request)) \(url) (age \(seconds) s, \(reason))",
                method: Self.method(of: request), url: url))
    }

    /// Logs that a storage send neither reads nor fills the store: `request` carries a credential
    /// and names no ``StoragePartition``, so its answer could belong to one user alone.
    func storageBypassed(_ request: NetworkRequest) {
        guard isEnabled(.notice) else { return }
        let url = redaction.url(of: request)
        options.sink.log(
            NetworkLogEvent(
                level: .notice, kind: .message,
                message: "storage bypassed for \(Self.method(of: request)) \(url): the request carries a credential "
                    + "(a sensitive header, such as an app-wide key in defaultHeaders, a cookie or a sensitive query "
                    + "parameter) and names no StoragePartition, so its answers are neither read from nor kept in "
                    + "the store; name a partition to store them (said once per network)",
                method: Self.method(of: request), url: url))
    }

    /// Whether an entry of `level` is built: the options' minimum level and the sink's own
    /// (a swift-log logger's) both let it through.
    private func isEnabled(_ level: NetworkLogEvent.Level) -> Bool {
        options.minimumLevel <= level && options.sink.admits(level)
    }

    /// Hands one entry about `request`'s send and attempt to the sink.
    private func emit(
        _ level: NetworkLogEvent.Level,
        _ kind: NetworkLogEvent.Kind,
        _ message: String,
        details: [String] = [],
        request: NetworkRequest,
        url: String,
        statusCode: Int? = nil,
        duration: Duration? = nil
    ) {
        let attempt = request.customProperties[SendAttempt.self]
        options.sink.log(
            NetworkLogEvent(
                level: level, kind: kind, message: message, details: details, sendID: attempt?.sendID,
                attempt: attempt.flatMap { $0.number > 0 ? $0.number : nil }, method: Self.method(of: request),
                url: url, statusCode: statusCode, duration: duration))
    }

    private func headerLines(_ headers: HTTPHeaders) -> [String] {
        headers.map { "    \($0.name): \(redaction.headerValue(name: $0.name, value: $0.value))" }
    }

    private func preview(_ data: Data, contentType: String?) -> String {
        redaction.bodyPreview(data, contentType: contentType, limit: options.bodyPreviewLimit)
    }

    /// The method as logged. A failure line may log a request that was rejected for its method,
    /// so a method that is not an HTTP token is escaped rather than allowed to break the line.
    private static func method(of request: NetworkRequest) -> String {
        let method = request.method.rawValue
        return HeaderValidation.isToken(method) ? method : String(reflecting: method)
    }
}
