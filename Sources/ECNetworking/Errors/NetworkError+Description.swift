extension NetworkError: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The sentence of ``errorDescription``, so that `print(error)` and `"\(error)"` show no secret.
    public var description: String {
        sentence(redaction: .forDescriptions)
    }

    /// The case and what it carries, such as `NetworkError.unacceptableStatusCode(NetworkResponse(…))`,
    /// with secrets redacted as described on ``SensitiveData``.
    public var debugDescription: String {
        let (name, payload) = reflection
        guard let payload else { return "NetworkError.\(name)" }
        return "NetworkError.\(name)(\(String(reflecting: payload)))"
    }

    /// The case and what it carries, for `dump`: responses through their own redacting mirror,
    /// underlying errors as redacted text (a `URLError` keeps its failing URL in its user info).
    public var customMirror: Mirror {
        let (name, payload) = reflection
        let children: [Mirror.Child] = payload.map { [(label: name, value: $0)] } ?? []
        return Mirror(self, children: children, displayStyle: .enum)
    }

    /// The case's name and a value that shows its payload without secrets.
    private var reflection: (name: String, payload: Any?) {
        switch self {
        case .invalidRequest(let reason):
            ("invalidRequest", reason)
        case .encodingFailed(let error):
            ("encodingFailed", Self.shown(error))
        case .transport(let error):
            ("transport", Self.shown(error))
        case .timedOut(let duration):
            ("timedOut", duration)
        case .unacceptableStatusCode(let response):
            ("unacceptableStatusCode", response)
        case .unacceptableContentType(let response):
            ("unacceptableContentType", response)
        case .bodyNotReplayable(let response, let lastError):
            ("bodyNotReplayable", (response: response as Any, lastError: lastError.map(Self.shown) as Any))
        case .decodingFailed(let error, let response):
            ("decodingFailed", (Self.shown(error), response: response))
        case .retryLimitReached(let attempts, let response):
            ("retryLimitReached", (attempts: attempts, response: response))
        case .invalidResponse:
            ("invalidResponse", nil)
        case .responseTooLarge(let limit):
            ("responseTooLarge", limit)
        case .readerFellBehind(let limit):
            ("readerFellBehind", limit)
        case .requestBodyFailed(let error):
            ("requestBodyFailed", Self.shown(error))
        case .tooManyRedirects(let limit):
            ("tooManyRedirects", limit)
        case .actionTimedOut(let action, let duration):
            ("actionTimedOut", (action: action, after: duration))
        case .retriesExhausted(let attempts, let lastError):
            ("retriesExhausted", (attempts: attempts, lastError: Self.shown(lastError)))
        case .actionDidNotComplete(let action):
            ("actionDidNotComplete", action)
        case .actionNotImplemented(let action):
            ("actionNotImplemented", action)
        case .redirectRefused(let scheme):
            ("redirectRefused", scheme)
        case .invalidated:
            ("invalidated", nil)
        case .tlsSettingUnavailable(let setting):
            ("tlsSettingUnavailable", setting)
        case .cancelled:
            ("cancelled", nil)
        }
    }

    /// A network error as itself (its mirror redacts), any other error as redacted text.
    private static func shown(_ error: any Error) -> Any {
        (error as? NetworkError) ?? Redaction.forDescriptions.describe(error)
    }
}
