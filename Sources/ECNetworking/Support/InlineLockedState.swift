#if !canImport(Darwin)
    import Synchronization

    /// A value guarded by a lock, stored inside the object that owns it: for a `final class` that
    /// every attempt creates, where a ``LockedState`` (an allocation of its own) would double the
    /// object's cost.
    ///
    /// On Linux it is `Synchronization.Mutex`, which the class holds inline: the object, its state
    /// and its lock are one allocation, and locking is a futex word rather than a call into
    /// `pthread_mutex_lock`. On Apple platforms, where `Mutex` needs macOS 15 and iOS 18, it is a
    /// ``LockedState``, as before. Either way the owner declares it as a `let` and reaches the
    /// value only through `withLock`; unlike a ``LockedState`` it cannot be copied out, which is
    /// why only a class's stored property may be one.
    package typealias InlineLockedState<State> = Mutex<State>
#else
    /// A value guarded by a lock, stored inside the object that owns it; on Apple platforms, where
    /// `Synchronization.Mutex` needs macOS 15 and iOS 18, a ``LockedState`` (see the Linux
    /// declaration).
    package typealias InlineLockedState<State: Sendable> = LockedState<State>
#endif
