/// One way of taking a large body from the loopback server, as the transfer scenario measures it:
/// raw or through the library, over URLSession or async-http-client, to a file or as a stream.
enum TransferMethod: String, CaseIterable, Codable, Sendable {
    /// A plain `URLSession` data task whose delegate writes each chunk to a file.
    case urlSessionRaw = "urlsession-raw"
    /// `Network.download(_:to:)` over `URLSessionTransport`.
    case urlSessionDownload = "urlsession-download"
    /// `Network.stream(_:)` over `URLSessionTransport`, every chunk read and dropped.
    case urlSessionStream = "urlsession-stream"
    /// The same, read no faster than ``Kind/pacedStream``'s rate.
    case urlSessionPacedStream = "urlsession-paced-stream"
    /// One `HTTPClient` whose response body is written to a file buffer by buffer.
    case asyncHTTPClientRaw = "ahc-raw"
    /// `Network.download(_:to:)` over `AsyncHTTPClientTransport`.
    case asyncHTTPClientDownload = "ahc-download"
    /// `Network.stream(_:)` over `AsyncHTTPClientTransport`, every chunk read and dropped.
    case asyncHTTPClientStream = "ahc-stream"
    /// The same, read no faster than ``Kind/pacedStream``'s rate.
    case asyncHTTPClientPacedStream = "ahc-paced-stream"

    /// What the client does with the body.
    enum Kind: Sendable {
        /// Writes it to a file by hand, on the transport's own API.
        case raw
        /// Writes it to a file with the library's download.
        case download
        /// Reads the library's stream to the end, dropping every chunk.
        case stream
        /// Reads the library's stream no faster than ``pacedBytesPerSecond``, as a reader that
        /// does real work with each chunk: the wire is faster, so only backpressure (or bytes
        /// set aside on disk) keeps the unread ones out of memory.
        case pacedStream

        /// The paced reader's rate: 32 MiB/s, a tenth of what URLSession reaches on loopback here.
        static let pacedBytesPerSecond = 32 * 1_048_576
    }

    /// What the client does with the body.
    var kind: Kind {
        switch self {
        case .urlSessionRaw, .asyncHTTPClientRaw: .raw
        case .urlSessionDownload, .asyncHTTPClientDownload: .download
        case .urlSessionStream, .asyncHTTPClientStream: .stream
        case .urlSessionPacedStream, .asyncHTTPClientPacedStream: .pacedStream
        }
    }

    /// Whether it goes over async-http-client rather than URLSession.
    var usesAsyncHTTPClient: Bool {
        [.asyncHTTPClientRaw, .asyncHTTPClientDownload, .asyncHTTPClientStream, .asyncHTTPClientPacedStream]
            .contains(self)
    }

    /// How the report names it.
    var label: String {
        let transport = usesAsyncHTTPClient ? "AsyncHTTPClient" : "URLSession"
        return switch kind {
        case .raw where usesAsyncHTTPClient: "raw AsyncHTTPClient, body written to a file"
        case .raw: "raw URLSession, delegate writes to a file"
        case .download: "ECNetworking download, \(transport)Transport"
        case .stream: "ECNetworking stream, \(transport)Transport"
        case .pacedStream:
            "ECNetworking stream read at \(Kind.pacedBytesPerSecond / 1_048_576) MiB/s, \(transport)Transport"
        }
    }

    /// The start of its `RESULT` names: the names (`download`, `stream`) for the library
    /// over URLSession, `ahc_` before them over async-http-client, `raw_download` for the baselines.
    var resultName: String {
        let name =
            switch kind {
            case .raw: "raw_download"
            case .download: "download"
            case .stream: "stream"
            case .pacedStream: "paced_stream"
            }
        return usesAsyncHTTPClient ? "ahc_" + name : name
    }
}
