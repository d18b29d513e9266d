/// Why a built-in decoding failed, beyond what `JSONDecoder` reports.
public enum ResponseDecodingError: Error, Sendable, Equatable {
    /// A `String` response whose body is not valid UTF-8.
    case invalidText
    /// A request whose `Response` has no built-in decoding implements neither form of
    /// `response(from:with:)`; `requestType` names it. Implement one of them.
    case notImplemented(requestType: String)
}
