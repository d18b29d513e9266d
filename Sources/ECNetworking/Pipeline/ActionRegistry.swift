/// The actions added to a network, safe to add to while requests run.
///
/// Each send takes a snapshot when an attempt starts, so an action added meanwhile applies from
/// the next attempt on and never changes a stage halfway through.
package final class ActionRegistry: Sendable {
    private let stages = InlineLockedState(ActionStages())

    /// Creates an empty registry.
    package init() {}

    package func add(_ action: any Action) {
        stages.withLock { $0.append(action) }
    }

    /// Drops every action, so that an invalidated network no longer keeps them, or what they
    /// hold, alive; sends in progress keep the snapshot they took.
    package func removeAll() {
        stages.withLock { $0 = ActionStages() }
    }

    package var snapshot: ActionStages {
        stages.withLock { $0 }
    }
}
