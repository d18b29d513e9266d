import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the transport's delegate knows about one task between its creation and its end.
///
/// An entry exists only while the task's completion has not been called: whoever removes it from
/// the table (completion, size limit, redirect limit, cancellation) is the one that calls the
/// completion, which is how "exactly once" is kept without a separate flag.
struct TransportTaskState: Sendable {
    /// Called once with the body and response, or with an error.
    let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    /// The URL the caller asked for. Its credentials were meant for its origin, so every redirect
    /// is compared with this origin rather than with the previous hop's.
    let originalURL: URL?
    /// The body of the current response, so far.
    var body = Data()
    /// How many redirects this task has followed.
    var redirectCount = 0
}
