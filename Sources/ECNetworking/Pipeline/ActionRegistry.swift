/// The actions added to a network, safe to add to while requests run.
///
/// Each send takes a snapshot when an attempt starts, so an action added meanwhile applies from
/// the next attempt on and never changes a stage halfway through.
package final class ActionRegistry: Sendable {
    private let userActions = LockedState(ActionStages())
    private let snapshotState: LockedState<ActionStages>
    private let trailingAction: (any Action)?

    /// Creates a registry whose `trailingAction` (the logging action) stays after every other.
    package init(trailingAction: (any Action)?) {
        self.trailingAction = trailingAction
        var stages = ActionStages()
        if let trailingAction { stages.append(trailingAction) }
        snapshotState = LockedState(stages)
    }

    package func add(_ action: any Action) {
        // Both locks are taken in this order only, so two adds cannot deadlock.
        userActions.withLock { user in
            user.append(action)
            var snapshot = user
            if let trailingAction { snapshot.append(trailingAction) }
            snapshotState.withLock { $0 = snapshot }
        }
    }

    /// Drops every action but the trailing one, so that an invalidated network no longer keeps
    /// them, or what they hold, alive; sends in progress keep the snapshot they took.
    func removeAll() {
        userActions.withLock { user in
            user = ActionStages()
            var snapshot = ActionStages()
            if let trailingAction { snapshot.append(trailingAction) }
            snapshotState.withLock { $0 = snapshot }
        }
    }

    package var snapshot: ActionStages {
        snapshotState.withLock { $0 }
    }
}
