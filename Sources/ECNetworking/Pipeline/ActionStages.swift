/// The actions of each stage, in the order they run.
///
/// A value whose lists live in one shared, immutable object: every attempt takes a snapshot and
/// passes it on, and one reference is retained for it instead of five. Adding an action makes a
/// new object, which happens only when actions are added.
package struct ActionStages: Sendable {
    private final class Lists: Sendable {
        let willBegin: [any RequestWillBeginAction]
        let began: [any RequestBeganAction]
        let responseBegan: [any ResponseBeganAction]
        let completed: [any ResponseCompletedAction]
        let failed: [any RequestFailedAction]

        init(
            willBegin: [any RequestWillBeginAction] = [],
            began: [any RequestBeganAction] = [],
            responseBegan: [any ResponseBeganAction] = [],
            completed: [any ResponseCompletedAction] = [],
            failed: [any RequestFailedAction] = []
        ) {
            self.willBegin = willBegin
            self.began = began
            self.responseBegan = responseBegan
            self.completed = completed
            self.failed = failed
        }
    }

    private var lists = Lists()

    package var willBegin: [any RequestWillBeginAction] { lists.willBegin }
    package var began: [any RequestBeganAction] { lists.began }
    package var responseBegan: [any ResponseBeganAction] { lists.responseBegan }
    package var completed: [any ResponseCompletedAction] { lists.completed }
    package var failed: [any RequestFailedAction] { lists.failed }

    /// Adds `action` to the end of every stage it conforms to.
    mutating func append(_ action: any Action) {
        var willBegin = lists.willBegin
        var began = lists.began
        var responseBegan = lists.responseBegan
        var completed = lists.completed
        var failed = lists.failed
        if let action = action as? any RequestWillBeginAction { willBegin.append(action) }
        if let action = action as? any RequestBeganAction { began.append(action) }
        if let action = action as? any ResponseBeganAction { responseBegan.append(action) }
        if let action = action as? any ResponseCompletedAction { completed.append(action) }
        if let action = action as? any RequestFailedAction { failed.append(action) }
        lists = Lists(
            willBegin: willBegin, began: began, responseBegan: responseBegan, completed: completed, failed: failed)
    }
}
