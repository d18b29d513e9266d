/// Something that takes part in the life of every request a network sends.
///
/// Conform to one or more of the stage protocols, in the order a request meets them:
/// 1. ``RequestWillBeginAction``: modify or fail the request (add an auth header).
/// 2. ``RequestBeganAction``: be told it was handed to the transport (log it).
/// 3. ``ResponseBeganAction``: be told a response arrived.
/// 4. ``ResponseCompletedAction``: modify or fail the response, or ask for a retry.
/// 5. ``RequestFailedAction``: be told the send ended in an error (once, after the last attempt).
///
/// At every stage actions run in the order they were added with ``Network/add(action:)``; the
/// built-in logging sees each stage after every action, so it logs the request as it was sent.
public protocol Action: Sendable {}
