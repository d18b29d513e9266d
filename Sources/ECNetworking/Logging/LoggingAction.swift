import Foundation

/// The built-in logging action, installed by `NetworkConfiguration(logging: true)` and always run
/// after every other action, so it logs the request exactly as it was sent.
///
/// For each attempt it writes the request (method, URL, headers, body preview, a cURL command) and
/// the response (status, duration, headers, body preview), and a line for a send that failed
/// before a response. Secrets named in ``LoggingOptions`` are redacted everywhere, the cURL line
/// included.
struct LoggingAction: RequestBeganAction, ResponseBeganAction {
    let options: LoggingOptions
    private let redaction: Redaction

    init(options: LoggingOptions) {
        self.options = options
        self.redaction = Redaction(options: options)
    }

    func requestBegan(_ request: NetworkRequest) {
        var lines = ["--> \(request.method.rawValue) \(redaction.url(request.url))"]
        if request.customProperties[JoinedIdenticalRequest.self] {
            lines[0] += " (joined an identical request on the wire)"
        }
        lines += headerLines(request.headers)
        if case .data(let data, _)? = request.body?.content, !data.isEmpty {
            lines.append("    body: \(preview(redaction.body(data, contentType: request.headers["Content-Type"])))")
        }
        if options.includesCURLCommand {
            lines.append("    \(CURLCommand.render(request, redaction: redaction))")
        }
        options.sink.write(lines.joined(separator: "\n"))
    }

    func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        let milliseconds = Int((response.timings.transport.seconds * 1000).rounded())
        var lines = [
            "<-- \(response.statusCode) \(request.method.rawValue) \(redaction.url(request.url)) (\(milliseconds) ms)"
        ]
        lines += headerLines(response.headers)
        if !response.body.isEmpty {
            lines.append(
                "    body: \(preview(redaction.body(response.body, contentType: response.headers["Content-Type"])))")
        }
        options.sink.write(lines.joined(separator: "\n"))
    }

    /// Logs a send that ended in an error, so transport failures and cancellations show up too.
    func logFailure(of request: NetworkRequest, error: any Error) {
        let reason = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        options.sink.write("<-- failed \(request.method.rawValue) \(redaction.url(request.url)): \(reason)")
    }

    /// Logs an answer served from a response store, which no action stage sees.
    func logStoredValue(of request: NetworkRequest, age: Duration, reason: String) {
        let url = (try? request.urlWithQuery()) ?? request.url
        let seconds = Int(age.components.seconds)
        options.sink.write("<-- stored \(request.method.rawValue) \(redaction.url(url)) (age \(seconds) s, \(reason))")
    }

    private func headerLines(_ headers: HTTPHeaders) -> [String] {
        headers.map { "    \($0.name): \(redaction.headerValue(name: $0.name, value: $0.value))" }
    }

    private func preview(_ data: Data) -> String {
        let shown = data.prefix(max(0, options.bodyPreviewLimit))
        let remainder = data.count - shown.count
        let suffix = remainder > 0 ? "… (\(remainder) more bytes)" : ""
        guard let text = Self.text(shown, wasCut: remainder > 0) else {
            return "<\(data.count) bytes of binary data>"
        }
        return text + suffix
    }

    /// The bytes as UTF-8 text, or `nil` for binary data. A cut may split a character, so a cut
    /// preview may drop up to three trailing bytes to end on a whole one.
    private static func text(_ bytes: Data, wasCut: Bool) -> String? {
        let maximumTrim = wasCut ? min(3, bytes.count) : 0
        for trim in 0...maximumTrim {
            if let text = String(data: bytes.dropLast(trim), encoding: .utf8) { return text }
        }
        return nil
    }
}
