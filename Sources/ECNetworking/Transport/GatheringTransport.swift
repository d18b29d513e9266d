/// A transport that can also carry a whole exchange without a Swift task: it gathers the body
/// itself and reports the complete response through a completion handler.
///
/// ``TransportCall`` prefers this form for the ordinary typed send, which wants the whole body
/// anyway. The streaming form, ``HTTPTransport/send(_:)``, needs a task to read the body, and every
/// task is a hop through the scheduler for the head, for each chunk and for the end; with 64 sends
/// in flight on two cores those hops cost more than the exchange itself. Here the transport's own
/// thread hands over the answer once.
///
/// The rules are ``HTTPTransport``'s (no redirect followed, decompression bounded by the request's
/// ``TransportRequest/maximumResponseSize``, errors reported as ``NetworkError``); the body the
/// response carries is complete, one chunk that can be read any number of times.
protocol GatheringTransport: HTTPTransport {
    /// A task, not yet resumed, that sends `request` and reports to `call` once, with
    /// ``TransportCall/gathered(_:)``, on any thread, with the response and its whole body, or with
    /// the error; cancelling it ends the exchange, after which `call` may or may not be told.
    ///
    /// The call itself is the receiver, not a closure: a session's completion handler that
    /// captures only the call needs no allocation of its own, where one capturing a closure does.
    ///
    /// - Returns: `nil` when this request must go through ``HTTPTransport/send(_:)`` instead, such
    ///   as one whose body is a one-shot stream.
    func gatheringTask(for request: TransportRequest, reportingTo call: TransportCall) -> (any SessionTask)?
}

/// How a network's attempts reach the wire: its transport, that transport's gathering form when it
/// has one (looked up once, not on every attempt), and the redirects the library follows for it.
///
/// A class, so that every attempt holds it with one reference: as a struct, each call copied two
/// existentials and the redirect rules' name lists, nine reference counts per attempt.
final class TransportRoute: Sendable {
    /// What carries each attempt.
    let transport: any HTTPTransport
    /// `transport`, when it can carry an exchange without a task.
    let gathering: (any GatheringTransport)?
    /// Follows the redirects `transport` returns.
    let redirects: RedirectFollower
    /// The network's cookies, added to and taken from every hop; `nil` when it keeps none.
    let cookies: (any CookieStore)?

    init(_ transport: any HTTPTransport, redirects: RedirectFollower, cookies: (any CookieStore)? = nil) {
        self.transport = transport
        self.gathering = transport as? any GatheringTransport
        self.redirects = redirects
        self.cookies = cookies
    }

    /// `hop` as it goes on the wire: with the stored cookies for its URL, setting
    /// `addsStoredCookies` when it got any.
    // Inlined into the start of every hop: without a cookie store it is then a `nil` check, not
    // a call that takes and returns the request. The flag is `inout`, not a tuple returned with
    // the request: a labelled tuple made the runtime look its type up on every hop.
    @inline(__always) func sent(_ hop: TransportRequest, addsStoredCookies: inout Bool) -> TransportRequest {
        guard let cookies else { return hop }
        var sent = hop
        if cookies.addCookies(to: &sent) { addsStoredCookies = true }
        return sent
    }
}
