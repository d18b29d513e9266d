/// One way of moving a large body to or from the loopback server, as the transfer scenario
/// measures it: raw or through the library, over URLSession or async-http-client; down to a file
/// or as a stream, up from a file, a stream or a form.
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
    /// A plain `URLSession` upload task from a file.
    case urlSessionRawUpload = "urlsession-raw-upload"
    /// `Network.send` of a `.file(at:)` body over `URLSessionTransport`.
    case urlSessionUploadFile = "urlsession-upload-file"
    /// `Network.send` of a `.multipart` form with the file as its part, over `URLSessionTransport`.
    /// (A one-shot `.stream` body is not measured over URLSession: the transport gathers it, up to
    /// 32 MiB, since a `URLSession` takes bytes or an `InputStream`.)
    case urlSessionUploadForm = "urlsession-upload-form"
    /// One `HTTPClient` sending the file in 64 KiB buffers, with its length.
    case asyncHTTPClientRawUpload = "ahc-raw-upload"
    /// `Network.send` of a `.file(at:)` body over `AsyncHTTPClientTransport`.
    case asyncHTTPClientUploadFile = "ahc-upload-file"
    /// `Network.send` of a `.stream` body of generated chunks, with its length, over `AsyncHTTPClientTransport`.
    case asyncHTTPClientUploadStream = "ahc-upload-stream"
    /// `Network.send` of a `.multipart` form with the file as its part, over `AsyncHTTPClientTransport`.
    case asyncHTTPClientUploadForm = "ahc-upload-form"

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

        /// Uploads the file by hand, on the transport's own API.
        case rawUpload
        /// Uploads the file as a `.file(at:)` body.
        case uploadFile
        /// Uploads generated chunks as a `.stream` body.
        case uploadStream
        /// Uploads the file as the one part of a `.multipart` form.
        case uploadForm

        /// The paced reader's rate: 32 MiB/s, a tenth of what URLSession reaches on loopback here.
        static let pacedBytesPerSecond = 32 * 1_048_576

        /// Whether the body goes to the server rather than from it.
        var isUpload: Bool { [.rawUpload, .uploadFile, .uploadStream, .uploadForm].contains(self) }
    }

    /// What the client does with the body.
    var kind: Kind {
        switch self {
        case .urlSessionRaw, .asyncHTTPClientRaw: .raw
        case .urlSessionDownload, .asyncHTTPClientDownload: .download
        case .urlSessionStream, .asyncHTTPClientStream: .stream
        case .urlSessionPacedStream, .asyncHTTPClientPacedStream: .pacedStream
        case .urlSessionRawUpload, .asyncHTTPClientRawUpload: .rawUpload
        case .urlSessionUploadFile, .asyncHTTPClientUploadFile: .uploadFile
        case .asyncHTTPClientUploadStream: .uploadStream
        case .urlSessionUploadForm, .asyncHTTPClientUploadForm: .uploadForm
        }
    }

    /// Whether it goes over async-http-client rather than URLSession.
    var usesAsyncHTTPClient: Bool {
        rawValue.hasPrefix("ahc-")
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
        case .rawUpload where usesAsyncHTTPClient: "raw AsyncHTTPClient, upload from a file"
        case .rawUpload: "raw URLSession, upload task from a file"
        case .uploadFile: "ECNetworking upload of a file, \(transport)Transport"
        case .uploadStream: "ECNetworking upload of a stream, \(transport)Transport"
        case .uploadForm: "ECNetworking upload of a multipart form, \(transport)Transport"
        }
    }

    /// The start of its `RESULT` names: `download`, `stream`, `upload` (a file), `stream_upload`,
    /// `form_upload` for the library over URLSession, `ahc_` before them over async-http-client,
    /// `raw_download` and `raw_upload` for the baselines.
    var resultName: String {
        let name =
            switch kind {
            case .raw: "raw_download"
            case .download: "download"
            case .stream: "stream"
            case .pacedStream: "paced_stream"
            case .rawUpload: "raw_upload"
            case .uploadFile: "upload"
            case .uploadStream: "stream_upload"
            case .uploadForm: "form_upload"
            }
        return usesAsyncHTTPClient ? "ahc_" + name : name
    }
}
