/// Renders a request as a cURL command that repeats it, with secrets redacted. Every argument is
/// quoted, the method included: `|`, `&`, `$` and backquotes are valid in an HTTP method.
enum CURLCommand {
    static func render(_ request: NetworkRequest, redaction: Redaction) -> String {
        // Appended to one string as it goes, rather than joined from parts: it is built for every
        // logged request.
        var command = "curl"
        if request.method != .get {
            command += " -X "
            command += quote(request.method.rawValue)
        }
        command += " "
        command += quote(redaction.url(request.url))
        for field in request.headers {
            command += " -H "
            command += quote(field.name + ": " + redaction.headerValue(name: field.name, value: field.value))
        }
        if case .data(let sent, _)? = request.body?.content, !sent.isEmpty {
            let data = redaction.body(sent, contentType: request.headers["Content-Type"])
            if let text = String(data: data, encoding: .utf8) {
                command += " --data-binary "
                command += quote(text)
            } else {
                command += " --data-binary '<\(data.count) bytes of binary data>'"
            }
        }
        return command
    }

    /// Quotes for a POSIX shell: single quotes, with each `'` written as `'\''`.
    private static func quote(_ text: String) -> String {
        // Most parts hold no quote; `replacingOccurrences`, like a `contains` of a string, goes
        // through NSString on Linux, so the check is on the bytes.
        guard text.utf8.contains(UInt8(ascii: "'")) else { return "'" + text + "'" }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
