import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Carries one request to a server and brings back its response: the seam a transport implements
/// once, so that every send, whatever carries it, runs the same action stages.
///
/// ``URLSessionTransport`` is the default on every platform; with the package trait
/// `AsyncHTTPClient` enabled, `AsyncHTTPClientTransport` is another. A transport of your own
/// implements this one method.
///
/// The library, not the transport, owns everything its documentation promises about a send: the
/// deadline over head and body, cancellation, redirects (see ``RedirectPolicy``), the response size
/// limit as bytes arrive, and retries. A transport only moves bytes:
/// - it returns as soon as the response head has arrived, with the body still arriving through
///   ``TransportResponse/body``, chunk by chunk, read no faster than its consumer reads it;
/// - it never follows a redirect itself: a 3xx response is returned as it is;
/// - it decompresses a body it asked to be compressed, and then stops with
///   ``NetworkError/responseTooLarge(limit:)`` once more than ``TransportRequest/maximumResponseSize``
///   bytes have come out, so a small compressed body cannot inflate without bound;
/// - cancelling the task that calls ``send(_:)`` or iterates the body ends the exchange promptly,
///   with `CancellationError` or ``NetworkError/cancelled``;
/// - it reports failures as ``NetworkError``: `.transport(URLError)` with the code that fits
///   (`.cannotConnectToHost`, `.networkConnectionLost`, `.timedOut`, ...), `.responseTooLarge`, or
///   `.invalidResponse`; a body shorter than its `Content-Length` is `.networkConnectionLost`,
///   never a short success.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns once the response head has arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// One request as a transport sends it: everything is final (URL with query, headers with
/// `Content-Type`, the encoded body); the transport adds only what HTTP itself requires, such as
/// `Host` and `Content-Length`.
public struct TransportRequest: Sendable {
    // In one copy-on-write object, as `NetworkRequest` keeps its fields: a send copies its wire
    // request into the call that carries it and the redirects it follows, and a `URL` (whose layout
    // only the run time knows) made every async function that kept one allocate it from the task.
    private var storage: CopyOnWrite<Fields>

    private struct Fields: Sendable {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
        var body: TransportRequestBody?
        var timeout: Duration?
        var maximumResponseSize: Int?
        var cachePolicy: URLRequest.CachePolicy?
        var uploadProgress: TransferProgressHandler?
        var redirectObserver: (any RedirectObserver)?
        var download: Download?
    }

    /// The method.
    public var method: HTTPMethod {
        get { storage.value.method }
        _modify { yield &storage.unique.value.method }
    }
    /// The absolute http or https URL, query included.
    public var url: URL {
        get { storage.value.url }
        _modify { yield &storage.unique.value.url }
    }
    /// The header fields, in order, repeated names kept.
    public var headers: HTTPHeaders {
        get { storage.value.headers }
        _modify { yield &storage.unique.value.headers }
    }
    /// The body, or `nil` for none.
    public var body: TransportRequestBody? {
        get { storage.value.body }
        _modify { yield &storage.unique.value.body }
    }
    /// The deadline of the whole exchange, head and body. The library enforces it itself; a
    /// transport may also use it to bound connecting.
    public var timeout: Duration? {
        get { storage.value.timeout }
        _modify { yield &storage.unique.value.timeout }
    }
    /// The largest response body, in bytes after decompression, the library accepts; `nil` for no
    /// limit. See ``HTTPTransport`` for what a transport does with it.
    public var maximumResponseSize: Int? {
        get { storage.value.maximumResponseSize }
        _modify { yield &storage.unique.value.maximumResponseSize }
    }
    /// The cache policy a `URLSession`-based transport applies; others ignore it.
    public var cachePolicy: URLRequest.CachePolicy? {
        get { storage.value.cachePolicy }
        _modify { yield &storage.unique.value.cachePolicy }
    }
    /// Who hears how much of the body has been sent, for the transports the package ships.
    package var uploadProgress: TransferProgressHandler? {
        get { storage.value.uploadProgress }
        _modify { yield &storage.unique.value.uploadProgress }
    }
    /// Who hears of each redirect the library follows for this request; `nil` without observers.
    var redirectObserver: (any RedirectObserver)? {
        get { storage.value.redirectObserver }
        _modify { yield &storage.unique.value.redirectObserver }
    }

    /// What the transport may know of a download whose file takes the body; `nil` for any other
    /// send.
    package var download: Download? {
        get { storage.value.download }
        _modify { yield &storage.unique.value.download }
    }

    /// A download's body goes to a file, which takes each chunk where it arrives (see
    /// ``ByteStream/push(to:)``) once the head has passed the send's stages. A transport that
    /// cannot pause a transfer (``URLSessionTransport`` on Linux) must keep what arrives before
    /// then; for a download that is no reader that fell behind, and it can be kept on the disk the
    /// download writes to.
    package struct Download: Sendable {
        /// The folder of the download's file, when it is known before the head: a file there
        /// takes every one of the body's bytes anyway.
        var folder: URL?
    }

    /// Creates a request.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: HTTPHeaders = [:],
        body: TransportRequestBody? = nil,
        timeout: Duration? = nil,
        maximumResponseSize: Int? = nil,
        cachePolicy: URLRequest.CachePolicy? = nil
    ) {
        storage = CopyOnWrite(
            Fields(
                method: method, url: url, headers: headers, body: body, timeout: timeout,
                maximumResponseSize: maximumResponseSize, cachePolicy: cachePolicy))
    }
}

/// A response head, and its body as it arrives.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The header fields, in order, repeated names (`Set-Cookie`) kept.
    public var headers: HTTPHeaders
    /// The URL that answered.
    public var url: URL?
    /// The body, chunk by chunk; empty for a response without one (HEAD, 204, 304).
    public var body: ByteStream
    /// The response as a `URLSession` delivered it, for the transports built on one, so that
    /// ``NetworkResponse/httpURLResponse`` stays filled for them.
    package var httpURLResponse: HTTPURLResponse?

    /// Creates a response.
    public init(statusCode: Int, headers: HTTPHeaders = [:], url: URL? = nil, body: ByteStream = ByteStream()) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.body = body
    }

    /// The head of `response`, as a `URLSession` delivered it, with `body`.
    init(_ response: HTTPURLResponse, body: ByteStream) {
        // Every field set here, not through the other initializer and then changed: that copied
        // the whole response once more.
        statusCode = response.statusCode
        headers = HTTPHeaders(response)
        url = response.url
        self.body = body
        httpURLResponse = response
    }
}
