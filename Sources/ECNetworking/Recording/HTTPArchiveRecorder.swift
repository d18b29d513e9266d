import Foundation

/// Records a network's traffic as a HAR 1.2 archive (``HTTPArchive``), the format browsers'
/// developer tools read, redacted by the same rules as the logs: record a session against staging
/// once, then replay it in tests with `ECNetworkingTesting`'s `FakeNetwork(replaying:)`.
///
/// ```swift
/// let recorder = HTTPArchiveRecorder()
/// var configuration = NetworkConfiguration(baseURL: stagingURL)
/// configuration.archiveRecorder = recorder
/// let network = URLSessionNetwork(configuration: configuration)
/// // … use the app …
/// try await recorder.write(to: URL(fileURLWithPath: "Fixtures/tour.har"))
/// ```
///
/// Each request on the wire is one entry, attempts and retries included, with its response:
/// method, URL, headers and body as sent and received, and the time to the head and to the end.
/// What the network's ``NetworkConfiguration/sensitiveData`` names is replaced by `<redacted>`:
/// credential and cookie headers, token query parameters, password fields of JSON and form
/// bodies. A request body the archive cannot redact field by field (binary data, a file, a stream,
/// a multipart form) is left out, its size kept; a response body that is not UTF-8 text is kept in
/// base64. A streamed body (a stream, a download, Server-Sent Events) is kept as your code reads
/// it, up to ``maximumStreamedBodySize`` bytes, and its entry is added when the body ends; one
/// that broke off records the bytes that came and the error (``HTTPArchive/Entry/error``), and a
/// replay breaks it off there again. A redirect the library follows is one entry, with the final
/// answer; a request that got no answer (a transport error, cancellation) has none.
public final class HTTPArchiveRecorder: Sendable {
    private let entries = LockedState([HTTPArchive.Entry]())
    private let creator: HTTPArchive.Creator
    /// The most of a streamed body an entry keeps; the rest is counted in its size and not kept,
    /// and the entry's ``HTTPArchive/Content/comment`` says so.
    public let maximumStreamedBodySize: Int

    /// A recorder with no entries yet, whose archives name `creator` as their author, keeping up
    /// to `maximumStreamedBodySize` bytes (16 MiB unless given) of each streamed body.
    public init(
        creator: HTTPArchive.Creator = HTTPArchive.Creator(name: "ECNetworking", version: "1"),
        maximumStreamedBodySize: Int = 16 * 1_048_576
    ) {
        self.creator = creator
        self.maximumStreamedBodySize = max(0, maximumStreamedBodySize)
    }

    /// Everything recorded so far, in the order the requests went on the wire.
    public var archive: HTTPArchive {
        var archive = HTTPArchive(creator: creator)
        archive.log.entries = entries.withLock { $0 }
        return archive
    }

    /// Forgets every entry.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Writes ``archive`` to `url` as HAR JSON, replacing any file there, readable and writable by
    /// the user alone (0600). The file work runs on a dispatch queue, off the caller's thread.
    public func write(to url: URL) async throws {
        let data = try archive.encoded()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Self.fileQueue.async {
                continuation.resume(with: Result { try Self.replace(url, with: data) })
            }
        }
    }

    private static let fileQueue = DispatchQueue(label: "ECNetworking.HTTPArchiveRecorder", attributes: .concurrent)

    /// Writes a new private file beside `url`, then renames it over `url`, so a reader never sees
    /// half an archive.
    private static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try FileSystemCalls.writeFile(data, toPath: temporary.path)
        do {
            try FileSystemCalls.replace(url.path, with: temporary.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    func append(_ entry: HTTPArchive.Entry) {
        entries.withLock { $0.append(entry) }
    }
}

extension NetworkConfiguration {
    /// Where every request on the wire is recorded, with its response, as a HAR 1.2 archive,
    /// redacted with ``sensitiveData``; `nil`, the default, records nothing. See
    /// ``HTTPArchiveRecorder``.
    public var archiveRecorder: HTTPArchiveRecorder? {
        get { observer(of: HTTPArchiveObserver.self)?.recorder }
        set { setObserver(newValue.map(HTTPArchiveObserver.init(recorder:))) }
    }
}
