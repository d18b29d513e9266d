/// A moment on the continuous clock, held as the time since the process first read it.
///
/// `ContinuousClock.Instant` and `ContinuousClock` are resilient types of the standard library:
/// their size is known only at run time, so every one an `async` function keeps across a
/// suspension is allocated from the task and reached through its metadata. The send path keeps
/// several, so it keeps this instead: a `Duration`, which is frozen, two words wide.
package struct SendMoment: Comparable, Sendable {
    /// The time since ``SendClock``'s origin.
    fileprivate let sinceOrigin: Duration

    package static func < (lhs: SendMoment, rhs: SendMoment) -> Bool {
        lhs.sinceOrigin < rhs.sinceOrigin
    }

    package static func + (moment: SendMoment, duration: Duration) -> SendMoment {
        SendMoment(sinceOrigin: moment.sinceOrigin + duration)
    }

    package static func - (later: SendMoment, earlier: SendMoment) -> Duration {
        later.sinceOrigin - earlier.sinceOrigin
    }
}

/// Reads ``SendMoment``s: the continuous clock, which keeps counting while the device sleeps.
package enum SendClock {
    /// The first reading; every moment counts from it.
    private static let origin = ContinuousClock.now

    /// Now. Never inlined: inlined into an async function, the `ContinuousClock.Instant` it reads
    /// would be allocated from the task, the very cost this type avoids.
    package static var now: SendMoment {
        @inline(never) get { SendMoment(sinceOrigin: origin.duration(to: .now)) }
    }
}
