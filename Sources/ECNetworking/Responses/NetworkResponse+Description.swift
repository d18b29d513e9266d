extension NetworkResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The status, the method and URL it answered (userinfo and sensitive parameters redacted) and
    /// the body's size, such as `401 POST https://api.example.com/v1/login (74 bytes)`.
    public var description: String {
        var parts = [String(statusCode)]
        if let request { parts.append(request.method.rawValue) }
        if let shownURL = url ?? request?.url { parts.append(Redaction.forDescriptions.url(shownURL)) }
        parts.append("(\(body.count) bytes)")
        return parts.joined(separator: " ")
    }

    /// The ``description``, the headers and a preview of the body, every secret redacted as
    /// described on ``SensitiveData``.
    public var debugDescription: String {
        "NetworkResponse(\(description), headers: \(headers), body: \(bodyPreview))"
    }

    /// The response for `dump`: the URL as redacted text, the headers through their redacting
    /// mirror, a redacted body preview, and the request through its own mirror. The
    /// `HTTPURLResponse` is left out: it holds the unredacted URL and headers.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "statusCode": statusCode,
                "url": url.map { Redaction.forDescriptions.url($0) } as Any,
                "headers": headers,
                "body": bodyPreview,
                "request": request as Any,
                "timings": timings,
            ],
            displayStyle: .struct)
    }

    /// How many bytes of the body descriptions show.
    private static let bodyPreviewLimit = 1024

    private var bodyPreview: String {
        guard !body.isEmpty else { return "empty" }
        return Redaction.forDescriptions.bodyPreview(
            body, contentType: headers["Content-Type"], limit: Self.bodyPreviewLimit)
    }
}
