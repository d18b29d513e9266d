import Foundation

/// Follows redirects for every transport alike, since a transport never follows one itself (see
/// ``HTTPTransport``): it decides, for each response, whether it is a redirect to follow, and
/// builds the request that follows it.
///
/// - Only 301, 302, 303, 307 and 308 with a `Location` are followed; any other response, and one
///   whose `Location` is no URL, is final and returned as it is.
/// - A target that is not http or https fails with ``NetworkError/redirectRefused(scheme:)``;
///   more than ``RedirectPolicy/maximumRedirects`` fail with
///   ``NetworkError/tooManyRedirects(limit:)``.
/// - 303, and 301 or 302 after a POST, become a GET without a body (a HEAD stays a HEAD), as
///   browsers and `URLSession` do; 307 and 308 keep the method and the body, so a one-shot
///   streamed body cannot follow them and fails with ``NetworkError/invalidRequest(reason:)``.
/// - On a redirect away from the origin the caller asked for (scheme, host or port; see
///   ``Origin``), every header ``SensitiveData`` names is removed, the list the logs redact too.
///   Every hop is compared with the first URL, because the credentials were meant for it.
struct RedirectFollower: Sendable {
    /// The policy to apply.
    let policy: RedirectPolicy
    /// The sensitive header names, prepared once for every redirect.
    private let redaction: Redaction

    init(policy: RedirectPolicy, redaction: Redaction) {
        self.policy = policy
        self.redaction = redaction
    }

    /// A follower that follows nothing: for a `Session` passed in, which applies its own rules
    /// before the library sees a response.
    static let disabled = RedirectFollower(policy: .never, redaction: Redaction.default)

    /// Whether `response` may be a redirect this follower follows: cheap, and `false` for every
    /// response that ``request(following:of:originalURL:followed:)`` answers with `nil` at once.
    func mayFollow(_ response: TransportResponse) -> Bool {
        mayFollow(statusCode: response.statusCode)
    }

    /// Whether a response with `statusCode` may be a redirect this follower follows.
    func mayFollow(statusCode: Int) -> Bool {
        policy.followsRedirects && Self.isRedirect(statusCode)
    }

    /// Whether `status` redirects: 301, 302, 303, 307 or 308. A switch rather than a set, which
    /// hashed the status of every response.
    private static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The request that follows `response` to `request`, or `nil` when `response` is final.
    ///
    /// - Parameters:
    ///   - originalURL: The URL the caller asked for, whose origin the credentials were meant for.
    ///   - followed: How many redirects the exchange has followed so far.
    func request(
        following response: TransportResponse, of request: TransportRequest, originalURL: URL, followed: Int
    ) throws -> TransportRequest? {
        guard policy.followsRedirects, Self.isRedirect(response.statusCode),
            let location = response.headers["Location"],
            let target = RedirectTarget.url(of: location, relativeTo: response.url ?? request.url)
        else { return nil }
        if let refused = RedirectTarget.refusedScheme(of: target) {
            throw NetworkError.redirectRefused(scheme: refused)
        }
        guard followed < policy.maximumRedirects else {
            throw NetworkError.tooManyRedirects(limit: policy.maximumRedirects)
        }
        var next = request
        next.url = target
        if Self.becomesGet(response.statusCode, method: request.method) {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name: name)
            }
        } else if let body = request.body, !body.isReplayable {
            // The request went out with its body, which is gone: the server has it, so the
            // error carries its answer rather than say that nothing was sent.
            throw NetworkError.bodyNotReplayable(
                response: NetworkResponse(copy response, body: Data(), requestedURL: request.url), lastError: nil)
        }
        if !Origin.same(originalURL, target) {
            for field in request.headers where redaction.isSensitiveHeader(field.name) {
                next.headers.remove(name: field.name)
            }
        }
        // Last, so the observer sees the hop as it goes out (and its trace context replaces the
        // one the previous hop carried).
        if let observer = next.redirectObserver {
            observer.redirectFollowed(statusCode: response.statusCode, to: &next)
        }
        return next
    }

    /// Whether a redirect with `status` turns a request with `method` into a GET without a body.
    private static func becomesGet(_ status: Int, method: HTTPMethod) -> Bool {
        switch status {
        case 303: method != .head
        case 301, 302: method == .post
        default: false
        }
    }
}
