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
    /// The sanitizer's runtime exports `__tsan_acquire` and `__tsan_release`; they are looked up
    /// once, and are `nil` in a process without it, where each annotation is one check.
    enum ThreadSanitizerAnnotations {
        private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

        /// The runtime's two annotations, or `nil` without the sanitizer.
        private static let annotations: (acquire: Annotation, release: Annotation)? = {
            // `RTLD_DEFAULT`: the executable and every library it loaded.
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
            guard let acquire = dlsym(everywhere, "__tsan_acquire"), let release = dlsym(everywhere, "__tsan_release")
            else { return nil }
            return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
        }()

        /// Notes that the calling thread now holds the lock known by `address`: everything done
        /// by the last thread that released it happened before what this one does next.
        @inline(__always) static func acquire(_ address: UnsafeMutableRawPointer) {
            annotations?.acquire(address)
        }

        /// Notes that the calling thread is about to let go of the lock known by `address`.
        @inline(__always) static func release(_ address: UnsafeMutableRawPointer) {
            annotations?.release(address)
        }
    }
#endif
