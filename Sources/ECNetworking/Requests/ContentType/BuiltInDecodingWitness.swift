/// Tells a content-type check that let a mismatched body through to decoding whether the
/// library's own JSON decoding failed on it, or a request's own decoding did.
///
/// A `Decodable` response is checked as JSON by default. When its `Content-Type` says otherwise,
/// the body is still decoded (see ``ContentTypeValidation/Verdict/mismatched``); if the library's
/// decoding then fails, the clearer error is ``NetworkError/unacceptableContentType(_:)``, with the
/// body. A request that decodes the body itself knows what it reads, so its own error stands:
/// for it, the check is off. Swift cannot tell from outside which implementation of
/// `response(from:with:)` a request has, so the library's one reports its failure here.
final class BuiltInDecodingWitness: Sendable {
    /// The witness of the decoding running on this task, bound only while a mismatched body is
    /// decoded: the common path neither binds nor reads it.
    @TaskLocal static var current: BuiltInDecodingWitness?

    // Set and read on the task that decodes; the lock only makes the class `Sendable`, as a
    // task-local value must be.
    private let failed = LockedState(false)

    /// Whether the library's own decoding failed while this witness was bound.
    var sawFailure: Bool { failed.withLock { $0 } }

    /// Notes, on the current task's witness if there is one, that the library's decoding failed.
    static func noteFailure() {
        current?.failed.withLock { $0 = true }
    }
}
