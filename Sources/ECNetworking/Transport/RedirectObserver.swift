/// Hears of every redirect a call follows, before the next hop goes out: each hop is a request of
/// its own on the wire, which telemetry describes (a span and a duration per physical request) and
/// which carries a trace context of its own.
///
/// Set on a ``TransportRequest`` only when the send has observers, so a send without integrations
/// pays nothing; the follower copies it to every hop it builds.
protocol RedirectObserver: Sendable {
    /// The hop that answered `statusCode` is over and `next` follows it; the observer may add
    /// headers to `next` (trace context). Called on whichever thread read the redirect, which may
    /// be after the attempt ended (its deadline passed meanwhile): the observer ignores it then.
    func redirectFollowed(statusCode: Int, to next: inout TransportRequest)
}
