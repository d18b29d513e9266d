/// Why a ``MockSession`` could not answer.
public enum MockSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No stub matches the request; the text describes it (method, URL, headers), with
    /// credentials, token parameters and cookies redacted as in every description of the library.
    case noStub(request: String)
    /// A stub's JSON object could not be serialized.
    case invalidJSONObject(String)
    /// The request has no URL.
    case missingURL

    /// A sentence that says what to stub.
    public var description: String {
        switch self {
        case .noStub(let request): "MockSession has no stub that matches \(request)"
        case .invalidJSONObject(let object): "MockResponse's JSON object is not valid JSON: \(object)"
        case .missingURL: "MockSession received a request without a URL"
        }
    }
}
