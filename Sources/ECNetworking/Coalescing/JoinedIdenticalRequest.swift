/// Set on the request a caller's began actions see when it joined an identical request already
/// on the wire instead of sending its own, so the log can say so. Only the began
/// actions see it: it is not carried into later stages or into a retry.
enum JoinedIdenticalRequest: CustomPropertyKey {
    static let defaultValue = false
}
