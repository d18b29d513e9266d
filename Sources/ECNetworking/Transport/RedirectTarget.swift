import Foundation

/// Where a redirect leads, judged before it is followed: only http and https targets are.
enum RedirectTarget {
    /// The schemes a redirect may lead to.
    static let followedSchemes: Set<String> = ["http", "https"]

    /// The URL a `Location` value points to, resolved against the URL that answered; `nil` when
    /// it is no URL at all, or an http or https URL without a host or with a port outside 1–65535
    /// (as a request's own URL is checked), since such a redirect cannot be followed and its 3xx is
    /// returned. The scheme is lowercased (`HTTP://host/` is followed as `http://host/`), since a
    /// session refuses a scheme it does not know in that case.
    static func url(of location: String, relativeTo base: URL) -> URL? {
        guard let target = resolved(location, relativeTo: base) else { return nil }
        if refusedScheme(of: target) == nil, !WireRequest.isAbsoluteHTTP(target) { return nil }
        return target
    }

    private static func resolved(_ location: String, relativeTo base: URL) -> URL? {
        guard let url = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme, scheme != scheme.lowercased()
        else { return URL(string: location, relativeTo: base)?.absoluteURL }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.scheme = scheme.lowercased()
        return components?.url ?? url
    }

    /// The scheme of `url` when it is not http or https (an empty string when it has none), or
    /// `nil` when a redirect to it may be followed. `file:///etc/passwd` and `data:text/plain,hi`
    /// are refused here, by the library, whatever a transport would have made of them.
    static func refusedScheme(of url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        return followedSchemes.contains(scheme) ? nil : scheme
    }
}
