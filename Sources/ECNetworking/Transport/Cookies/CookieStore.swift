import Foundation

/// What a network's transport call asks of its cookies, whichever ``CookieStorage`` holds them.
protocol CookieStore: Sendable {
    /// The `Cookie` header value for a request to `url`, or `nil` when none goes to it.
    func cookieHeader(for url: URL) -> String?
    /// Keeps the cookies of a response to `url`, given its `Set-Cookie` values.
    func store(setCookieFields: [String], from url: URL)
}

extension CookieStore {
    /// `request` with the cookies for its URL added to its `Cookie` header: a cookie the request
    /// sets itself comes first and wins over the store's of the same name, so an action's or a
    /// caller's `Cookie` header is never replaced nor dropped.
    func adding(to request: TransportRequest) -> TransportRequest {
        var request = request
        addCookies(to: &request)
        return request
    }

    /// Adds the cookies for `request`'s URL to its `Cookie` header as ``adding(to:)`` does; returns
    /// whether it added any, which makes the answer one to the user those cookies name.
    @discardableResult
    func addCookies(to request: inout TransportRequest) -> Bool {
        guard let stored = cookieHeader(for: request.url) else { return false }
        // Repeated fields are one list of pairs: joined by `; `, never by the `, ` of other headers.
        let own = request.headers.values(for: "Cookie").joined(separator: "; ")
        guard !own.isEmpty else {
            request.headers["Cookie"] = stored
            return true
        }
        let ownNames = Set(
            own.split(separator: ";").map { pair in
                pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            })
        let added = stored.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { pair in
            !ownNames.contains(String(pair.split(separator: "=", maxSplits: 1).first ?? ""))
        }
        guard !added.isEmpty else { return false }
        request.headers["Cookie"] = ([own] + added).joined(separator: "; ")
        return true
    }

    /// Keeps the cookies `headers` sets, for a response to `url`.
    func storeCookies(of headers: HTTPHeaders, from url: URL?) {
        guard let url else { return }
        let fields = headers.values(for: "Set-Cookie")
        guard !fields.isEmpty else { return }
        store(setCookieFields: fields, from: url)
    }
}
