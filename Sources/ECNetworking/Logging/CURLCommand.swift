/// Renders a request as a cURL command that repeats it, with secrets redacted. Every argument is
/// quoted, the method included: `|`, `&`, `$` and backquotes are valid in an HTTP method.
enum CURLCommand {
    static func render(_ request: NetworkRequest, redaction: Redaction) -> String {
        var parts = ["curl"]
        if request.method != .get {
            parts.append("-X \(quote(request.method.rawValue))")
        }
        parts.append(quote(redaction.url(request.url)))
        for field in request.headers {
            parts.append("-H \(quote("\(field.name): \(redaction.headerValue(name: field.name, value: field.value))"))")
        }
        if case .data(let sent, _)? = request.body?.content, !sent.isEmpty {
            let data = redaction.body(sent, contentType: request.headers["Content-Type"])
            if let text = String(data: data, encoding: .utf8) {
                parts.append("--data-binary \(quote(text))")
            } else {
                parts.append("--data-binary '<\(data.count) bytes of binary data>'")
            }
        }
        return parts.joined(separator: " ")
    }

    /// Quotes for a POSIX shell: single quotes, with each `'` written as `'\''`.
    private static func quote(_ text: String) -> String {
        // Most parts hold no quote; `replacingOccurrences` goes through NSString on Linux.
        guard text.contains("'") else { return "'" + text + "'" }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
