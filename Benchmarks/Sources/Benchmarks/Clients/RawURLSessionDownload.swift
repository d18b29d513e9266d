import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the library's download over `URLSessionTransport` is measured against: what an app would
/// write by hand to save a large body without holding it, a plain `URLSession` with a delegate
/// whose data task writes each chunk to a file as it arrives, with the same headers the library's
/// actions add.
///
/// On Linux its delegate queue runs each call at once, on FoundationNetworking's own thread, as
/// `URLSessionTransport`'s does: with the ordinary queue an app gets by passing `nil`, every chunk
/// hopped to another thread before it was written, a cost the library does not pay, which made
/// the baseline slower than the leanest hand-written code. Elsewhere it is the session's own queue.
///
/// A data task rather than `URLSession.download`: the library's transport reads the same data-task
/// callbacks, so the two differ only by what the library adds; a download task has FoundationNetworking
/// write its own temporary file, through another path.
struct RawURLSessionDownload: Sendable {
    /// One session for the process: FoundationNetworking crashes in libcurl teardown when sessions
    /// come and go (the Linux notes of the library's documentation say more).
    private static let delegate = RawDownloadDelegate()
    private static let session = URLSession(
        configuration: LoopbackScenario.sessionConfiguration(), delegate: delegate, delegateQueue: delegateQueue())

    private static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
            InlineDelegateQueue()
        #else
            nil
        #endif
    }

    /// The server's address.
    let baseURL: URL
    /// The headers sent with the request.
    let headers: [(name: String, value: String)]

    /// Downloads a generated body of `byteCount` bytes into `destination` and returns the number
    /// of bytes written.
    func download(byteCount: Int, to destination: URL) async throws -> Int {
        // GET is `URLRequest`'s default: a hand-written client sets no method for it.
        var request = URLRequest(url: GeneratedBody.url(byteCount: byteCount, baseURL: baseURL))
        for header in headers {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        let file = try OutputFile(creating: destination)
        return try await withCheckedThrowingContinuation { continuation in
            let task = Self.session.dataTask(with: request)
            Self.delegate.start(task, writingTo: file, continuation: continuation)
            task.resume()
        }
    }
}

/// The raw client's session delegate: writes each task's chunks to its file and resumes its
/// caller with the byte count when the task completes.
private final class RawDownloadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked` because `NSObject` is not `Sendable`; the one mutable state is behind the mutex.

    private struct Transfer {
        let file: OutputFile
        let continuation: CheckedContinuation<Int, any Error>
        var status: Int?
        var byteCount = 0
        var failure: (any Error)?
    }

    /// The transfers in progress, by task identifier.
    private let transfers = Mutex<[Int: Transfer]>([:])

    func start(
        _ task: URLSessionDataTask, writingTo file: OutputFile, continuation: CheckedContinuation<Int, any Error>
    ) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(file: file, continuation: continuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Written outside the lock: the delegate queue is serial, so one task's chunks never overlap.
        guard let file = transfers.withLock({ $0[dataTask.taskIdentifier]?.file }) else { return }
        do {
            try data.withUnsafeBytes { try file.append($0) }
            transfers.withLock { $0[dataTask.taskIdentifier]?.byteCount += data.count }
        } catch {
            transfers.withLock { $0[dataTask.taskIdentifier]?.failure = error }
            // Not from here: on FoundationNetworking's own thread, a task method waits for itself.
            DispatchQueue.global().async { dataTask.cancel() }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let closing = Result { try transfer.file.finish() }
        if let failure = transfer.failure ?? error {
            transfer.continuation.resume(throwing: failure)
        } else if transfer.status != 200 {
            transfer.continuation.resume(throwing: BenchmarkError.unexpectedStatus(transfer.status))
        } else if case .failure(let failure) = closing {
            transfer.continuation.resume(throwing: failure)
        } else {
            transfer.continuation.resume(returning: transfer.byteCount)
        }
    }
}

#if canImport(FoundationNetworking)
    /// A delegate queue that runs each call at once, on the thread that adds it: on Linux,
    /// FoundationNetworking's own, where each chunk arrives.
    private final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
        // `@unchecked` because `OperationQueue` is an open class the compiler cannot check; this
        // subclass adds no state.
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
