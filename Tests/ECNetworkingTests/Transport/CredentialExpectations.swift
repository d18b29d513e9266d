import TestSupport
import Testing

/// Checks what a redirect to another origin forwarded: no credentials, but the ordinary
/// `X-Trace: trace-1` header the tests send along.
func expectCredentialsRemoved(
    from forwarded: LoopbackHTTPServer.ReceivedRequest,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(forwarded.header("Authorization") == nil, sourceLocation: sourceLocation)
    #expect(forwarded.header("Cookie") == nil, sourceLocation: sourceLocation)
    #expect(forwarded.header("Proxy-Authorization") == nil, sourceLocation: sourceLocation)
    #expect(forwarded.header("X-Trace") == "trace-1", sourceLocation: sourceLocation)
}
