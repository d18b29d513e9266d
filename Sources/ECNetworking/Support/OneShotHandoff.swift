/// An outcome handed exactly once to the one party waiting for it, whichever of the two arrives
/// first, together with the resources that served the wait, given back exactly once when it ends.
///
/// Every wait in the library that several threads can end (the session's answer, a deadline, a
/// cancellation) follows the same rules: the first ending wins and later ones do nothing; an
/// ending that comes before the waiter is kept for it; whatever was set up for the wait (a session
/// task, a deadline, an action's task) is released by whoever ended it, and only by them.
///
/// This is a value, not an object: its owner keeps it inside the ``LockedState`` it already has,
/// so it costs neither an allocation nor a lock of its own, which matters on the path every
/// attempt takes. Each method only changes the state and returns what must be done; the owner does
/// it after the lock is released (resumes the waiter, cancels a task), so no foreign code ever runs
/// under the lock.
package struct OneShotHandoff<Waiter, Outcome, Resources> {
    fileprivate enum Stage {
        /// Not ended yet; the waiter may have come.
        case pending
        /// Ended before anyone waited: the outcome is kept for the waiter.
        case endedUnclaimed
        /// Ended, and the outcome is with the waiter (or on its way to it).
        case delivered
    }

    /// What the one call to ``finish(_:)`` that ended the handoff must release and tell.
    package struct Ending {
        /// The waiter to give the outcome to; `nil` when it has not come yet, since it then gets
        /// the outcome from ``OneShotHandoff/wait(_:)``.
        package var waiter: Waiter?
        /// The resources held for the wait, no longer wanted.
        package var resources: Resources
    }

    // Three stored parts rather than one enum with payloads: an enum's payload can only be read
    // by copying it out and written by rebuilding the case, which copied the waiter, the
    // resources and, in ``finish(_:)``, the outcome every time the owner's lock was taken.
    private var stage = Stage.pending
    private var waiter: Waiter?
    /// Held while pending; handed out, and `nil`, once ended.
    private var resources: Resources?
    /// The outcome of a handoff that ended before anyone waited, until the waiter takes it.
    private var unclaimedOutcome: Outcome?

    /// A handoff nobody waits for yet.
    package init(resources: Resources) {
        self.resources = resources
    }

    /// A handoff whose waiter is known from the start, as for a completion handler given at
    /// creation.
    package init(waiter: Waiter, resources: Resources) {
        self.waiter = waiter
        self.resources = resources
    }

    /// Whether the handoff has ended; only the first ``finish(_:)`` counts.
    package var isFinished: Bool {
        if case .pending = stage { return false }
        return true
    }

    /// Registers `waiter`, or returns the outcome when the handoff ended first; the caller then
    /// gives it to `waiter` itself, at once.
    ///
    /// A handoff has one waiter: waiting twice is a programming error.
    package mutating func wait(_ waiter: Waiter) -> Outcome? {
        switch stage {
        case .pending:
            precondition(self.waiter == nil, "a one-shot handoff has one waiter")
            self.waiter = waiter
            return nil
        case .endedUnclaimed:
            stage = .delivered
            return unclaimedOutcome.take()
        case .delivered:
            preconditionFailure("a one-shot handoff has one waiter")
        }
    }

    /// Changes the resources held for the wait, unless the handoff has ended.
    ///
    /// - Returns: `false`, without calling `change`, when the handoff has ended; whatever the
    ///   caller meant to store is then not wanted, and the caller releases it.
    package mutating func updateResources(_ change: (inout Resources) -> Void) -> Bool {
        guard case .pending = stage else { return false }
        change(&resources!)
        return true
    }

    /// Ends the handoff with `outcome`, unless it has ended already.
    ///
    /// - Returns: What the caller must release and whom it must give `outcome` to, after the
    ///   lock is released; `nil` when an earlier call ended the handoff, so this one does nothing.
    package mutating func finish(_ outcome: Outcome) -> Ending? {
        guard case .pending = stage else { return nil }
        let waiter = self.waiter.take()
        if waiter == nil {
            unclaimedOutcome = outcome
            stage = .endedUnclaimed
        } else {
            stage = .delivered
        }
        return Ending(waiter: waiter, resources: resources.take()!)
    }
}

extension OneShotHandoff: Sendable where Waiter: Sendable, Outcome: Sendable, Resources: Sendable {}

extension OneShotHandoff.Stage: Sendable {}

extension OneShotHandoff.Ending: Sendable where Waiter: Sendable, Resources: Sendable {}

extension OneShotHandoff where Resources == Void {
    /// A handoff with no resources that nobody waits for yet.
    package init() {
        self.init(resources: ())
    }

    /// A handoff with no resources whose waiter is known from the start.
    package init(waiter: Waiter) {
        self.init(waiter: waiter, resources: ())
    }
}

extension OneShotHandoff where Outcome == Void {
    /// Ends a handoff whose waiter needs no value, only to be told once.
    package mutating func finish() -> Ending? {
        finish(())
    }
}
