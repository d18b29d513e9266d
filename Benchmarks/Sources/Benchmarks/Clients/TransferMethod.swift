/// One way of taking a large body from the loopback server, as the transfer scenario measures it:
/// raw or through the library, over URLSession or async-http-client, to a file or as a stream.
enum TransferMethod: String, CaseIterable, Codable, Sendable {
    /// A plain `URLSession` data task whose delegate writes each chunk to a file.
    case urlSessionRaw = "urlsession-raw"
    /// `Network.download(_:to:)` over `URLSessionTransport`.
    case urlSessionDownload = "urlsession-download"
    /// `Network.stream(_:)` over `URLSessionTransport`, every chunk read and dropped.
    case urlSessionStream = "urlsession-stream"
    /// One `HTTPClient` whose response body is written to a file buffer by buffer.
    case asyncHTTPClientRaw = "ahc-raw"
    /// `Network.download(_:to:)` over `AsyncHTTPClientTransport`.
    case asyncHTTPClientDownload = "ahc-download"
    /// `Network.stream(_:)` over `AsyncHTTPClientTransport`, every chunk read and dropped.
    case asyncHTTPClientStream = "ahc-stream"

    /// How the report names it.
    var label: String {
        switch self {
        case .urlSessionRaw: "raw URLSession, delegate writes to a file"
        case .urlSessionDownload: "ECNetworking download, URLSessionTransport"
        case .urlSessionStream: "ECNetworking stream, URLSessionTransport"
        case .asyncHTTPClientRaw: "raw AsyncHTTPClient, body written to a file"
        case .asyncHTTPClientDownload: "ECNetworking download, AsyncHTTPClientTransport"
        case .asyncHTTPClientStream: "ECNetworking stream, AsyncHTTPClientTransport"
        }
    }

    /// The start of its `RESULT` names: the names (`download`, `stream`) for the library
    /// over URLSession, `ahc_` before them over async-http-client, `raw_download` for the baselines.
    var resultName: String {
        switch self {
        case .urlSessionRaw: "raw_download"
        case .urlSessionDownload: "download"
        case .urlSessionStream: "stream"
        case .asyncHTTPClientRaw: "ahc_raw_download"
        case .asyncHTTPClientDownload: "ahc_download"
        case .asyncHTTPClientStream: "ahc_stream"
        }
    }

    /// Whether the body ends up in a file.
    var writesFile: Bool {
        ![.urlSessionStream, .asyncHTTPClientStream].contains(self)
    }

    /// Whether it is a library method, held to a bar.
    var isLibrary: Bool {
        ![.urlSessionRaw, .asyncHTTPClientRaw].contains(self)
    }
}
