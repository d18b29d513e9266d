/// Why a built-in decoding failed, beyond what `JSONDecoder` reports.
public enum ResponseDecodingError: Error, Sendable, Equatable {
    /// A `String` response whose body is not valid UTF-8.
    case invalidText
}
