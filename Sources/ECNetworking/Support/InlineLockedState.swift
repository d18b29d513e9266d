#if !canImport(Darwin)
    import Synchronization

    /// A value guarded by a lock, stored inside the `final class` that owns it, where a
    /// ``LockedState`` would be an allocation of its own beside the object (a cost that counts for
    /// the objects every send or attempt makes) and a call into `pthread_mutex_lock` at each use.
    ///
    /// On Linux it holds a `Synchronization.Mutex` inline: the object, its state and its lock are
    /// one allocation, and locking is a futex word rather than a call into `pthread_mutex_lock`.
    /// On Apple platforms, where `Mutex` needs macOS 15 and iOS 18, it is a ``LockedState``, as
    /// before. Either way the owner declares it as a `let` and reaches the value only through
    /// `withLock`; unlike a ``LockedState`` it cannot be copied out, which is why only a class's
    /// stored property may be one.
    ///
    /// ThreadSanitizer does not see the `Mutex` synchronise (its futex and atomics live in a
    /// library built without instrumentation), so it would report every access to the state as a
    /// race, in this package's tests and in those of any app that runs them under the sanitizer.
    /// So each critical section also tells the sanitizer, when it is there, that it acquires and
    /// releases this lock (see ``ThreadSanitizerAnnotations``); without the sanitizer that is one
    /// check of an optional that is `nil`.
    package struct InlineLockedState<State>: ~Copyable {
        private let mutex: Mutex<State>
        /// ``ThreadSanitizerAnnotations/active``, read once: a lazy global, it cost every use of
        /// the lock a call to check that it was initialised, some dozen times a send.
        private let sanitizer: ThreadSanitizerAnnotations?

        /// Guards `state`.
        package init(_ state: consuming sending State) {
            mutex = Mutex(state)
            sanitizer = ThreadSanitizerAnnotations.active
        }

        /// Runs `body` with exclusive access to the state.
        package borrowing func withLock<Result, E: Error>(
            _ body: (inout sending State) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            guard let sanitizer else { return try mutex.withLock(body) }
            // The mutex's address, in the owning object, names the lock to the sanitizer. Taken
            // before the lock and without touching the state: an access to the state before the
            // sanitizer hears of the acquisition would itself be reported.
            let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
            return try mutex.withLock { (state: inout sending State) throws(E) -> sending Result in
                sanitizer.acquire(address)
                defer { sanitizer.release(address) }
                return try body(&state)
            }
        }
    }

    // Safe as `Mutex` is: the value is reached only through `withLock`, under the lock.
    extension InlineLockedState: @unchecked Sendable {}
#else
    /// A value guarded by a lock, stored inside the object that owns it; on Apple platforms, where
    /// `Synchronization.Mutex` needs macOS 15 and iOS 18, a ``LockedState`` (see the Linux
    /// declaration).
    package typealias InlineLockedState<State: Sendable> = LockedState<State>
#endif
