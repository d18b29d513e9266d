import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes two requests identical for coalescing: everything the ``TransportRequest`` carries to the
/// transport except the timeout, which each caller keeps for itself. That is the method, the final
/// URL with its query, the headers (in order) but for the trace context, the body and the cache
/// policy.
struct CoalescingKey: Hashable, Sendable {
    let method: HTTPMethod
    let url: URL
    let headers: HTTPHeaders
    let body: Data?
    let cachePolicy: URLRequest.CachePolicy
    /// The hash of the fields, computed once: the registry looks a key up twice per send, and
    /// hashing a URL and every header each time showed in profiles.
    private let fieldsHash: Int

    /// The key of a request as it goes on the wire, or `nil` when it must not be coalesced: only
    /// GETs are, since sharing one answer is only safe for a read. Asked only with coalescing on.
    init?(_ wire: borrowing WireRequest) {
        guard wire.request.method == .get, wire.request.customProperties[AllowsCoalescing.self],
            wire.pendingMultipart == nil
        else {
            return nil
        }
        // A file's, a stream's or a multipart form's bytes are not known to compare, and a stream
        // is read once: such a request always goes out alone.
        switch wire.transportRequest.body?.source {
        case nil: body = nil
        case .bytes(let data)?: body = data
        case .file?, .stream?: return nil
        }
        method = wire.request.method
        url = wire.request.url
        var headers = wire.request.headers
        // A tracer gives every attempt its own context; the shared call carries the leader's. Checked
        // first, since removing copies the fields even when none matches.
        for name in Self.traceContextHeaders where headers.contains(name: name) {
            headers.remove(name: name)
        }
        self.headers = headers
        cachePolicy = wire.transportRequest.cachePolicy ?? .useProtocolCachePolicy
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(cachePolicy)
        fieldsHash = hasher.finalize()
    }

    /// The W3C trace context headers, which differ between otherwise identical requests.
    private static let traceContextHeaders = ["traceparent", "tracestate"]

    func hash(into hasher: inout Hasher) {
        hasher.combine(fieldsHash)
    }

    static func == (lhs: CoalescingKey, rhs: CoalescingKey) -> Bool {
        lhs.fieldsHash == rhs.fieldsHash && lhs.method == rhs.method && lhs.url == rhs.url
            && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.cachePolicy == rhs.cachePolicy
    }
}
