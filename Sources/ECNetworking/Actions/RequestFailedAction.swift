/// An action told that a send ended in an error, so an app's own logging or analytics sees
/// failures as the built-in logging does.
///
/// It is told once per failed send, after the last attempt (retries included), whatever ended it:
/// a transport error, an unacceptable status, a decoding failure, a cancellation, an error an
/// action threw. It is never told about a send that succeeded. It gets the request as last sent,
/// with what the will-begin actions added (credentials included, as every action sees them), and
/// the error exactly as the caller gets it: a ``NetworkError`` or, unchanged, an error an action
/// threw.
///
/// It only observes: it cannot change the outcome, and it runs on the send's path before the
/// caller is answered, so keep it quick. A send takes the failure actions present when it starts.
/// A request whose `buildRequest(with:)` throws is never built, so there is nothing to report; a
/// storage send that falls back to the stored response after the network failed reports that
/// failure, as the logging does.
public protocol RequestFailedAction: Action {
    /// Called once for a send that ended with `error`, with the request as it was last sent.
    func requestFailed(_ request: NetworkRequest, error: any Error)
}
