import Foundation

/// The built-in logging action, installed by `NetworkConfiguration(logging: true)` and always run
/// after every other action, so it logs the request exactly as it was sent.
///
/// For each attempt it writes the request (method, URL, headers, body preview, a cURL command) and
/// the response (status, duration, headers, body preview), and a line for a send that failed
/// before a response. The secrets ``NetworkConfiguration/sensitiveData`` names are redacted
/// everywhere: URLs, headers, body previews, the cURL line and the failure line, whose error
/// description shows the response body through the same redaction.
struct LoggingAction: RequestBeganAction, ResponseBeganAction {
    let options: LoggingOptions
    private let redaction: Redaction

    init(options: LoggingOptions, redaction: Redaction) {
        self.options = options
        self.redaction = redaction
    }

    func requestBegan(_ request: NetworkRequest) {
        var lines = ["--> \(Self.method(of: request)) \(redaction.url(request.url))"]
        if request.customProperties[JoinedIdenticalRequest.self] {
            lines[0] += " (joined an identical request on the wire)"
        }
        lines += headerLines(request.headers)
        if case .data(let data, _)? = request.body?.content, !data.isEmpty {
            lines.append("    body: \(preview(data, contentType: request.headers["Content-Type"]))")
        }
        if options.includesCURLCommand {
            lines.append("    \(CURLCommand.render(request, redaction: redaction))")
        }
        options.sink.write(lines.joined(separator: "\n"))
    }

    func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        let milliseconds = Int((response.timings.transport.seconds * 1000).rounded())
        var lines = [
            "<-- \(response.statusCode) \(Self.method(of: request)) \(redaction.url(request.url)) (\(milliseconds) ms)"
        ]
        lines += headerLines(response.headers)
        if !response.body.isEmpty {
            lines.append("    body: \(preview(response.body, contentType: response.headers["Content-Type"]))")
        }
        options.sink.write(lines.joined(separator: "\n"))
    }

    /// Logs a send that ended in an error, so transport failures and cancellations show up too.
    func logFailure(of request: NetworkRequest, error: any Error) {
        let reason = redaction.describe(error)
        options.sink.write("<-- failed \(Self.method(of: request)) \(redaction.url(of: request)): \(reason)")
    }

    /// Logs an answer served from a response store, which no action stage sees.
    func logStoredValue(of request: NetworkRequest, age: Duration, reason: String) {
        let seconds = Int(age.components.seconds)
        options.sink.write(
            "<-- stored \(Self.method(of: request)) \(redaction.url(of: request)) (age \(seconds) s, \(reason))")
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
