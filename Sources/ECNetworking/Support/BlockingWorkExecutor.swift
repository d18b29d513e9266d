import Dispatch

/// Runs the jobs of a task that prefers it on dispatch's threads rather than the concurrency
/// runtime's: for a task whose every step does work that may block its thread (a download writing
/// each chunk to its file), so that a slow disk never holds one of the runtime's few threads (two
/// on a two-core machine), which every other task of the process shares.
///
/// A task prefers it with `withTaskExecutorPreference`; the code the task awaits is then resumed
/// here directly, so the task costs no more hops than it would on the runtime's threads. One
/// task's jobs never run at once (a task is enqueued again only once its job has run), so the
/// queue may be concurrent: each task runs in order, and tasks do not wait for each other.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class BlockingWorkExecutor: TaskExecutor {
    /// The executor every such task shares.
    static let shared = BlockingWorkExecutor()

    /// Set on the queue, for a test to tell where its code ran.
    static let queueKey = DispatchSpecificKey<Bool>()

    private let queue: DispatchQueue

    private init() {
        queue = DispatchQueue(label: "ECNetworking.BlockingWork", attributes: .concurrent)
        queue.setSpecific(key: Self.queueKey, value: true)
    }

    /// Whether the calling code runs on this executor's queue.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: queueKey) == true
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
