#if !canImport(Darwin)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Tells ThreadSanitizer, when the process runs under it, of synchronisation it cannot see:
    /// a `Synchronization.Mutex` locks with a futex and atomics in a library built without the
    /// sanitizer's instrumentation, so without these annotations every access it guards looks
    /// like a race (see ``InlineLockedState``).
    ///
    /// The sanitizer's runtime exports `__tsan_acquire` and `__tsan_release`; ``active`` holds
    /// them when the process runs under it, and is `nil` otherwise.
    struct ThreadSanitizerAnnotations: Sendable {
        private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

        private let acquireAnnotation: Annotation
        private let releaseAnnotation: Annotation

        /// The runtime's two annotations, looked up once; `nil` without the sanitizer, so that a
        /// lock checks one optional and otherwise does nothing more.
        static let active: Self? = {
            // `RTLD_DEFAULT`: the executable and every library it loaded.
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
            guard let acquire = dlsym(everywhere, "__tsan_acquire"), let release = dlsym(everywhere, "__tsan_release")
            else { return nil }
            return Self(
                acquireAnnotation: unsafeBitCast(acquire, to: Annotation.self),
                releaseAnnotation: unsafeBitCast(release, to: Annotation.self))
        }()

        /// Notes that the calling thread now holds the lock known by `address`: everything done
        /// by the last thread that released it happened before what this one does next.
        func acquire(_ address: UnsafeMutableRawPointer) {
            acquireAnnotation(address)
        }

        /// Notes that the calling thread is about to let go of the lock known by `address`.
        func release(_ address: UnsafeMutableRawPointer) {
            releaseAnnotation(address)
        }
    }
#endif
