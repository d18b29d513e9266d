import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// `request` as a `URLSession` sends it.
    ///
    /// A file body is streamed from disk; a one-shot stream is read into memory first, up to
    /// ``URLSessionTransport/maximumStreamBodySize``, since a `URLSession` takes either bytes or
    /// an `InputStream`. An `InputStream` fed from an async sequence has to block the thread that
    /// reads it, and on Linux that is the queue every session's transfers share: tried, a slow
    /// stream stalled every transfer of the process, and cancelling a task blocked in it crashed
    /// FoundationNetworking.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a stream longer than the limit, or
    ///   one whose bytes are not the `length` it announced; nothing went on the wire.
    ///
    /// With `readsFileItself`, a file body is left out for the caller to attach (see
    /// ``init(_:streamedBody:readsFileItself:)``).
    static func sending(_ request: TransportRequest, readsFileItself: Bool = false) async throws -> URLRequest {
        if case .stream(let stream)? = request.body?.source {
            let limit = URLSessionTransport.maximumStreamBodySize
            let body: Data
            do {
                body = try await stream.collect(upTo: limit)
            } catch NetworkError.responseTooLarge {
                throw NetworkError.invalidRequest(
                    reason:
                        "a stream body over \(limit) bytes cannot be sent over URLSessionTransport, which gathers it "
                        + "first; send it from a file, or over AsyncHTTPClientTransport, which streams it")
            }
            // A stream whose `length:` is not what it gave would go out framed by what it gave,
            // as if the caller had said so: refused, as async-http-client refuses it.
            if let length = request.body?.length, length != body.count {
                throw NetworkError.announcedLengthMismatch
            }
            return try URLRequest(request, streamedBody: body)
        }
        return try URLRequest(request, streamedBody: nil, readsFileItself: readsFileItself)
    }

    /// `request` as a `URLSession` sends it, with `streamedBody` standing in for a one-shot stream.
    /// With `readsFileItself`, a file body is not attached: ``URLSessionTransport`` sends the file
    /// with its `Content-Length`, set here, through an upload task on Apple platforms and a stream
    /// of its own on Linux (see `OwnedRequestBody`); a `Session` has only data tasks, so it gets the
    /// file as a stream.
    init(_ request: borrowing TransportRequest, streamedBody: Data?, readsFileItself: Bool = false) throws {
        // The cache policy and the timeout go to the initializer: set afterwards, each is one
        // more change of the request Foundation holds, which on Linux looks its properties up
        // again (about 200 instructions per request with a timeout).
        self.init(
            url: request.url, cachePolicy: request.cachePolicy ?? .useProtocolCachePolicy,
            timeoutInterval: request.timeout.map(Self.backstopInterval) ?? Self.defaultTimeoutInterval)
        // GET is the default; setting it anyway costs a normalising copy of the method on Linux.
        if request.method != .get {
            httpMethod = request.method.rawValue
        }
        for field in request.headers {
            addValue(field.value, forHTTPHeaderField: field.name)
        }
        switch request.body?.source {
        case nil: break
        case .bytes(let data)?: httpBody = data
        case .stream?: httpBody = streamedBody
        case .file(let url)?:
            // The transport attaches the file itself; a `Session`, which has only data tasks, gets
            // it as a stream.
            if !readsFileItself {
                httpBodyStream = try Self.fileStream(url, length: request.body?.length)
            }
            if Self.sendsStreamedBodiesChunked && !readsFileItself {
                // FoundationNetworking sends any body read from a stream chunked, whatever the
                // headers say; with a Content-Length beside it the request would be malformed
                // (RFC 9112 §6.1), and servers such as SwiftNIO's refuse it.
                setValue(nil, forHTTPHeaderField: "Content-Length")
            } else if let length = request.body?.length, value(forHTTPHeaderField: "Content-Length") == nil {
                setValue(String(length), forHTTPHeaderField: "Content-Length")
            }
        }
    }

    /// A stream of the file at `url` for a `Session`, which has only data tasks. On Linux, one of
    /// the library's (see `OwnedRequestBody`): a `URLSession` passed in then sends the file with its
    /// `Content-Length` rather than chunked, and a file that changes size fails the send (see
    /// `URLSession.dataTask(for:completion:)`); any other session reads it as a plain stream.
    private static func fileStream(_ url: URL, length: Int?) throws -> InputStream {
        // A file that cannot be opened fails the stream's first read, as `InputStream(url:)`'s
        // does (on Linux it is never `nil`, whatever is at `url`).
        #if canImport(FoundationNetworking)
            if let length { return OwnedRequestBody(file: url, length: length).makeStream() }
        #endif
        guard let stream = InputStream(url: url) else {
            throw NetworkError.invalidRequest(reason: "the body file \"\(url.lastPathComponent)\" could not be read")
        }
        return stream
    }

    /// Whether this platform's `URLSession` sends a body read from a stream chunked, whatever the
    /// headers say: FoundationNetworking's does.
    private static var sendsStreamedBodiesChunked: Bool {
        #if canImport(FoundationNetworking)
            true
        #else
            false
        #endif
    }

    /// `URLRequest`'s own default timeout, for a request without one.
    private static let defaultTimeoutInterval: TimeInterval = 60

    /// The timeout a `URLSession` gets for a request the library ends at `timeout`. Foundation
    /// truncates it to whole seconds on Linux, so it is only a backstop a second beyond the
    /// deadline the library enforces itself.
    private static func backstopInterval(_ timeout: Duration) -> TimeInterval {
        (timeout.seconds + 1).rounded(.up)
    }
}

extension URLRequest {
    /// A task that carries `request` whole as a `URLRequest` (see ``GatheringTransport``), made by
    /// `makeTask`; one that fails when resumed if the request cannot be built (a file that cannot
    /// be read); `nil` for a one-shot stream body, which must be read before it can be sent.
    static func gatheringTask(
        for request: TransportRequest,
        reportingTo call: TransportCall,
        readsFileItself: Bool = false,
        _ makeTask: (URLRequest) -> any SessionTask
    ) -> (any SessionTask)? {
        guard !request.hasStreamedBody else { return nil }
        do {
            return makeTask(try URLRequest(request, streamedBody: nil, readsFileItself: readsFileItself))
        } catch {
            return FailedSessionTask(error: error, reportingTo: call)
        }
    }
}

extension TransportRequest {
    /// Whether the body is a one-shot stream, which a `URLRequest` can carry only once read.
    var hasStreamedBody: Bool {
        if case .stream? = body?.source { return true }
        return false
    }
}
