import Foundation

/// Where a physical request goes, as OpenTelemetry's HTTP client conventions describe it:
/// `server.address`, `server.port` (always set: the scheme's default when the URL names none)
/// and `url.scheme`.
struct TelemetryServer: Sendable {
    /// The host, or `nil` for a URL without one.
    let address: String?
    /// The port the URL names, or 443 for https and 80 for http.
    let port: Int
    /// `http` or `https`, lowercased.
    let scheme: String

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? "http"
        address = url.host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}
