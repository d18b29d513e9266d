import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a redirect leads, judged before it is followed: only http and https targets are.
///
/// The check reads the response's own `Location` as well as the request the session proposes,
/// because FoundationNetworking on Linux rewrites a target without a host onto the current
/// server: `Location: file:///etc/passwd` is proposed as `http://host:port/etc/passwd`, and
/// `data:text/plain,hello` as `http://host:port/text/plain,hello`, which would look harmless.
enum RedirectTarget {
    /// The schemes a redirect may lead to.
    static let followedSchemes: Set<String> = ["http", "https"]

    /// The scheme of the target when it is not http or https (an empty string when the target has
    /// none), or `nil` when the redirect may be followed.
    static func refusedScheme(of response: HTTPURLResponse, proposed request: URLRequest) -> String? {
        // A Location that is no URL at all is never followed by the session, so only one that
        // parses is judged; the proposed request always is.
        if let location = response.value(forHTTPHeaderField: "Location")
            .flatMap({ URL(string: $0, relativeTo: response.url) }),
            let refused = refusedScheme(of: location)
        {
            return refused
        }
        return refusedScheme(of: request.url)
    }

    private static func refusedScheme(of url: URL?) -> String? {
        let scheme = url?.absoluteURL.scheme?.lowercased() ?? ""
        return followedSchemes.contains(scheme) ? nil : scheme
    }
}
