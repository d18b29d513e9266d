extension RequestMetrics: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The request, its status, attempts and total time, and the error, such as
    /// `POST https://api.example.com/v1/login: 401 after 1 attempt in 0.015 seconds`, with secrets
    /// redacted as described on ``SensitiveData``.
    public var description: String {
        let status = statusCode.map { "\($0)" } ?? "no response"
        let attemptsText = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        var text = "\(request): \(status) after \(attemptsText) in \(timings.total)"
        if let error { text += "; failed: \(Redaction.forDescriptions.describe(error))" }
        return text
    }

    /// The ``description`` with the type's name and the timings of each stage.
    public var debugDescription: String {
        "RequestMetrics(\(description), timings: \(timings))"
    }

    /// The metrics for `dump`: the request through its redacting mirror, the error as redacted text.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "request": request,
                "statusCode": statusCode as Any,
                "attempts": attempts,
                "retriedBy": retriedBy,
                "timings": timings,
                "error": error.map { Redaction.forDescriptions.describe($0) } as Any,
                "responseBodyByteCount": responseBodyByteCount as Any,
            ],
            displayStyle: .struct)
    }
}
