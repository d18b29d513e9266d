#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock, so that several threads can read and change it safely.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 and iOS 18, and `NSLock` costs three
/// allocations (the lock object, its mutex, and a box for the value). Requests create several of
/// these each, so the value and the platform lock live together in one `ManagedBuffer`: one
/// allocation. Shared with `ECNetworkingTesting` through `package` access; not public API.
///
/// `State` must be `Sendable`: the lock serialises access, but a value that is not `Sendable`
/// (a class with its own unguarded references) could still be reached from two threads once a
/// `withLock` body hands part of it out.
package struct LockedState<State: Sendable>: @unchecked Sendable {
    // Safe because the value in `storage` is only reached through `withLock`, which holds the lock,
    // and the value itself is `Sendable`, so nothing taken out of it races either.
    private let storage: LockStorage<State>

    /// Guards the value `state` evaluates to. An autoclosure, so that the value is made in place
    /// in the lock's storage: a value passed in would be copied there and then destroyed, through
    /// its type's value witnesses, on every request that creates one.
    package init(_ state: @autoclosure () -> State) {
        storage = LockStorage.create(state)
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

#if canImport(Darwin)
    private typealias PlatformLock = os_unfair_lock
#else
    private typealias PlatformLock = pthread_mutex_t
#endif

/// The value (the buffer's header) and its lock (the buffer's one element) in a single allocation.
private final class LockStorage<State>: ManagedBuffer<State, PlatformLock> {
    static func create(_ makeState: () -> State) -> LockStorage<State> {
        let buffer = Self.create(minimumCapacity: 1) { _ in makeState() }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                pthread_mutex_init(lock, nil)
            #endif
        }
        return storage
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, lock in
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                pthread_mutex_lock(lock)
                defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }

    // The header (the state) is destroyed by `ManagedBuffer` itself; the element is ours.
    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }
}
