import Foundation

/// What makes two requests identical for coalescing: method, URL, headers (in order) and body.
struct CoalescingKey: Hashable, Sendable {
    let method: HTTPMethod
    let url: URL
    let headers: HTTPHeaders
    let body: Data?

    /// The key of a request as it goes on the wire, or `nil` when it must not be coalesced: only
    /// GETs are, since sharing one answer is only safe for a read.
    init?(_ wire: WireRequest, configuration: NetworkConfiguration) {
        guard configuration.coalescesIdenticalRequests, wire.request.method == .get,
            wire.request.customProperties[AllowsCoalescing.self]
        else { return nil }
        method = wire.request.method
        url = wire.request.url
        headers = wire.request.headers
        body = wire.urlRequest.httpBody
    }
}
