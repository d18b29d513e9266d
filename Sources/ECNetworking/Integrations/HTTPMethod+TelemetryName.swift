extension HTTPMethod {
    /// The method as telemetry names it: a method OpenTelemetry knows as it is, any other as
    /// `_OTHER`, so that a request made with an arbitrary method cannot grow the number of metric
    /// series or span names without bound.
    var telemetryName: String {
        switch rawValue {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY": rawValue
        default: "_OTHER"
        }
    }
}
