#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    /// The delegate queue of a ``URLSessionTransport`` on Linux: it runs each block at once, on
    /// the thread that adds it, instead of later on a thread of its own.
    ///
    /// FoundationNetworking hands every delegate call to `delegateQueue.addOperation` from its
    /// libcurl thread, body data included, and libcurl never waits for the delegate: with an
    /// ordinary queue, libcurl goes on reading and inflating while the queued chunks pile up, so a
    /// response stopped at a 1 MiB limit could still cost 100 MB (a compressed "bomb"), and a
    /// cancellation waited behind them. Run here, each chunk is counted, kept or dropped before
    /// libcurl produces the next one, so memory stays within the limit plus one chunk.
    ///
    /// The price: delegate methods run on FoundationNetworking's own queue, where calling back
    /// into the session synchronously (creating, resuming, suspending or cancelling a task, or a
    /// challenge's default handling, which suspends the task) deadlocks. ``TransportDelegate``
    /// therefore never calls a caller's code or a blocking session method from a delegate method;
    /// it sends that work to its own queue.
    final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked` because `OperationQueue` is an open Foundation class the compiler cannot
        // check; this subclass adds no state, so it is as safe to share as its superclass.

        /// Runs `block` now, on the calling thread.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
