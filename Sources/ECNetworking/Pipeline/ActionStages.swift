/// The actions of each stage, in the order they run.
package struct ActionStages: Sendable {
    package var willBegin: [any RequestWillBeginAction] = []
    package var began: [any RequestBeganAction] = []
    package var responseBegan: [any ResponseBeganAction] = []
    package var completed: [any ResponseCompletedAction] = []
    package var failed: [any RequestFailedAction] = []

    /// Adds `action` to the end of every stage it conforms to.
    mutating func append(_ action: any Action) {
        if let action = action as? any RequestWillBeginAction { willBegin.append(action) }
        if let action = action as? any RequestBeganAction { began.append(action) }
        if let action = action as? any ResponseBeganAction { responseBegan.append(action) }
        if let action = action as? any ResponseCompletedAction { completed.append(action) }
        if let action = action as? any RequestFailedAction { failed.append(action) }
    }
}
