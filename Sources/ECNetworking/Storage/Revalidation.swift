import Foundation

/// Conditional requests (RFC 9110 §13): how a stored entry's validators are sent, and how a
/// `304 Not Modified` refreshes the entry without its body being sent again.
extension NetworkRequest {
    /// Adds `If-None-Match` and `If-Modified-Since` from `stored`, and accepts 304 besides the
    /// usual codes. Returns whether the request is now conditional; when it is not, a 304 stays
    /// unacceptable, as it would be without a store.
    ///
    /// A request that already carries either header is left alone: its own validators may name
    /// another version than the stored one, and a 304 to them would not vouch for the stored body.
    mutating func makeConditional(on stored: StoredResponse, defaultAcceptableStatusCodes: Set<Int>) -> Bool {
        guard !headers.contains(name: "If-None-Match"), !headers.contains(name: "If-Modified-Since") else {
            return false
        }
        var conditional = false
        if let etag = stored.etag {
            headers["If-None-Match"] = etag
            conditional = true
        }
        if let lastModified = stored.lastModified {
            headers["If-Modified-Since"] = lastModified
            conditional = true
        }
        if conditional {
            acceptableStatusCodes = (acceptableStatusCodes ?? defaultAcceptableStatusCodes).union([304])
            // URLSession's own HTTP cache (on Apple platforms) could otherwise answer in the
            // server's place or turn the 304 into a 200 from its copy, hiding the revalidation.
            if cachePolicy == nil { cachePolicy = .reloadIgnoringLocalCacheData }
        }
        return conditional
    }
}

/// A stored entry's validators, waiting on a storage send's request until its will-begin actions
/// have run: only then is it known whose request it is (an action may have signed in someone
/// else since the store was read), and another identity must never be sent this entry's `ETag`
/// or `Last-Modified`.
struct PendingRevalidation: Sendable {
    /// The entry whose validators are sent.
    var stored: StoredResponse
    /// The configuration's acceptable status codes, which 304 joins.
    var defaultAcceptableStatusCodes: Set<Int>
    /// Whether the request, after its will-begin actions, still belongs to the entry's partition.
    var belongsToEntry: @Sendable (NetworkRequest) -> Bool

    /// The custom property a storage send attaches it under.
    enum Key: CustomPropertyKey {
        static let defaultValue: PendingRevalidation? = nil
    }

    /// Whether the request, as it went out, was made conditional on the stored entry; set on
    /// every attempt, so a retry that went out unconditionally never counts as conditional.
    enum Applied: CustomPropertyKey {
        static let defaultValue = false
    }
}

extension PendingRevalidation {
    /// Makes `request` conditional on the stored entry, if the request still belongs to that
    /// entry's partition. Called by the pipeline right after the will-begin actions, on a request
    /// its storage send attached this to; the pipeline never calls here for any other.
    func apply(to request: inout NetworkRequest) {
        let applied =
            belongsToEntry(request)
            && request.makeConditional(on: stored, defaultAcceptableStatusCodes: defaultAcceptableStatusCodes)
        request.customProperties[PendingRevalidation.Applied.self] = applied
    }
}

extension StoredResponse {
    /// Whether the entry has a validator to revalidate it with.
    var hasValidators: Bool {
        etag != nil || lastModified != nil
    }

    /// Headers a 304 does not replace: they describe the 304 itself, not the stored body.
    private static let headersDescribingTheMessage = [
        "Content-Length", "Content-Encoding", "Transfer-Encoding", "Content-Type", "Content-Range",
    ]

    /// The entry confirmed by a `304 Not Modified`: the same body, stored again now, with the
    /// headers the 304 sent (a new `ETag`, `Date`, `Cache-Control`) replacing the stored ones.
    func refreshed(by notModified: NetworkResponse, at date: Date = Date()) -> StoredResponse {
        var refreshed = self
        refreshed.storedAt = date
        let skipped = Self.headersDescribingTheMessage + Self.unstoredHeaderNames
        var replaced: Set<String> = []
        for field in notModified.headers
        where !skipped.contains(where: { $0.equalsIgnoringASCIICase(field.name) }) {
            let name = field.name.lowercased()
            if replaced.insert(name).inserted {
                refreshed.headers[field.name] = field.value
            } else {
                refreshed.headers.add(name: field.name, value: field.value)
            }
        }
        return refreshed
    }

    /// The entry as a response to decode, as if it had just arrived in answer to `request`.
    func networkResponse(for request: NetworkRequest) -> NetworkResponse {
        NetworkResponse(statusCode: statusCode, headers: headers, body: body, url: request.url, request: request)
    }
}
