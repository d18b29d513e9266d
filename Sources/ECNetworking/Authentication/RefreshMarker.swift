/// Marks the tasks that run ``Authenticator/refresh(_:)``, so that what the refresh sends can be
/// told apart from everything else.
///
/// A request that requires authentication, sent from inside a refresh of the same credential,
/// would wait for that very refresh: the action fails it at once instead. And the refresh's own
/// request leaves the admission queue first, since every request waiting for the credential waits
/// for it too.
enum RefreshMarker {
    /// The credential stores whose refresh the current task is part of. A task-local value, so it
    /// reaches everything the refresh calls and every task it creates, and nothing else.
    @TaskLocal static var refreshingStores: Set<ObjectIdentifier> = []

    /// The priority a send made from inside any refresh is queued with: above every named level,
    /// with room left so that arithmetic on it cannot overflow.
    static let refreshPriority = RequestPriority(rawValue: Int.max / 4)

    /// `priority`, raised to ``refreshPriority`` when the current task is part of a refresh.
    static func priority(for priority: RequestPriority) -> RequestPriority {
        refreshingStores.isEmpty ? priority : max(priority, refreshPriority)
    }
}
