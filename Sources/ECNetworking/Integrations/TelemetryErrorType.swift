/// OpenTelemetry's `error.type` for a failed request: the status code for an unacceptable status,
/// otherwise a short name of the kind of failure, never its description, which may hold a URL or a
/// body. One vocabulary for spans and metrics alike, so a dashboard can join them.
enum TelemetryErrorType {
    /// The `error.type` of `error`.
    static func of(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        guard let error = error as? NetworkError else { return String(reflecting: type(of: error)) }
        switch error {
        case .unacceptableStatusCode(let response): return String(response.statusCode)
        case .cancelled: return "cancelled"
        case .invalidated: return "invalidated"
        case .invalidResponse: return "invalidResponse"
        default:
            // The case's name; its payload (a reason, a response) stays out.
            return Mirror(reflecting: error).children.first?.label ?? "NetworkError"
        }
    }

    /// The `error.type` of a request that ended with `statusCode` and `error`: the error's when
    /// there is one, otherwise the status code from 400 on (OpenTelemetry counts those as
    /// failures of a client request), otherwise none.
    static func of(statusCode: Int?, error: (any Error)?) -> String? {
        if let error { return of(error) }
        if let statusCode, statusCode >= 400 { return String(statusCode) }
        return nil
    }
}
