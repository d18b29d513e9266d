import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A one-shot request body (``RequestBody/stream(_:length:contentType:)``) handed to a
/// `URLSession` as the `InputStream` it reads, through a bounded buffer: a task of its own pulls
/// the stream's chunks while fewer than ``highWaterMark`` bytes wait, and the session takes them
/// as it sends, so the body is never held whole, only what the session has not taken yet (at most
/// ``highWaterMark`` bytes and one of the stream's chunks).
///
/// A session reads its body stream synchronously, on a thread of its own, so ``read(_:maxLength:)``
/// blocks that thread until the next chunk arrives: on Linux, FoundationNetworking takes a stream
/// that says it has no bytes available for one that has ended, and sends the body short. There
/// its thread is the one libcurl's callbacks run on for every session of the process, and the
/// threads of the concurrency runtime wait for it whenever they create or resume a task; so on
/// Linux the stream is pulled on a queue of its own (``UploadPullExecutor``), never the runtime's
/// threads, which may all be waiting, and a read waits at most ``stallLimit`` for a chunk: past
/// it the body fails with ``NetworkError/requestBodyFailed(_:)`` carrying
/// ``NetworkError/timedOut(after:)``, rather than hold up every other transfer (see
/// <doc:LinuxNotes>). ``stop()``, which the exchange calls however it ends (a deadline,
/// cancellation), wakes a waiting read at once. On Apple platforms a bound pair of streams carries
/// the bytes, copied into it by a thread of its own, and a read waits as long as the stream takes.
///
/// When the stream throws, the exchange is told first (it ends with
/// ``NetworkError/requestBodyFailed(_:)``), then the session's read fails.
final class StreamedUploadBody: Sendable {
    /// How many bytes may wait for the session before the stream is no longer read.
    static let highWaterMark = 1_048_576
    /// How far the session must drain the buffer before the stream is read again.
    static let lowWaterMark = 262_144
    /// How long a read waits for the stream's next chunk; see the type's comment.
    #if canImport(FoundationNetworking)
        static let stallLimit: Duration? = .seconds(2)
    #else
        static let stallLimit: Duration? = nil
    #endif

    private struct State {
        /// The rest of the chunk the session read part of, which comes before `chunks`.
        var front = Data()
        var chunks = ChunkQueue()
        /// How the stream ended, once it has.
        var ending: Result<Void, any Error>?
        /// Whether the exchange ended, so nothing more is read or sent.
        var isStopped = false
        /// Whether the session's thread waits on `dataArrived` for a chunk or an ending.
        var readerWaits = false
        /// The pulling task, waiting for the session to drain the buffer.
        var producer: UnsafeContinuation<Void, Never>?
        /// The pulling task, to cancel when the exchange ends.
        var task: Task<Void, Never>?
        /// Who hears that the stream failed or stalled: the exchange.
        var onFailure: (@Sendable (any Error) -> Void)?

        var bufferedByteCount: Int { front.count + chunks.byteCount }
    }

    private let stream: ByteStream
    private let state = LockedState(State())
    /// Signalled once for each wait of the session's thread (see `State.readerWaits`).
    private let dataArrived = DispatchSemaphore(value: 0)

    init(_ stream: ByteStream) {
        self.stream = stream
    }

    /// Starts pulling the stream; `onFailure` hears of an error it throws, before the session does.
    func start(onFailure: @escaping @Sendable (any Error) -> Void) {
        state.withLock { $0.onFailure = onFailure }
        #if canImport(FoundationNetworking)
            let task = Task(executorPreference: UploadPullExecutor.shared) { await self.pump() }
        #else
            let task = Task { await self.pump() }
        #endif
        let isStopped = state.withLock { state -> Bool in
            state.task = task
            return state.isStopped
        }
        if isStopped { task.cancel() }
    }

    /// Tells the exchange that the body failed with `error`, unless it has ended already.
    private func fail(with error: any Error) {
        let onFailure = state.withLock { state in state.isStopped ? nil : state.onFailure }
        onFailure?(error)
    }

    /// Ends the body: the exchange ended, so the stream is no longer read, and a session still
    /// reading gets an error at once.
    func stop() {
        typealias Waiters = (producer: UnsafeContinuation<Void, Never>?, wakesReader: Bool, task: Task<Void, Never>?)
        let (producer, wakesReader, task) = state.withLock { state -> Waiters in
            guard !state.isStopped else { return (nil, false, nil) }
            state.isStopped = true
            state.front = Data()
            _ = state.chunks.removeAll()
            defer {
                state.producer = nil
                state.readerWaits = false
                state.task = nil
                state.onFailure = nil
            }
            return (state.producer, state.readerWaits, state.task)
        }
        task?.cancel()
        producer?.resume()
        if wakesReader { dataArrived.signal() }
    }

    // MARK: - The pulling task

    private func pump() async {
        do {
            for try await chunk in stream {
                guard await waitForRoom() else { return }
                let wakesReader = state.withLock { state -> Bool in
                    guard !state.isStopped else { return false }
                    state.chunks.append(chunk)
                    defer { state.readerWaits = false }
                    return state.readerWaits
                }
                if wakesReader { dataArrived.signal() }
            }
            end(with: .success(()))
        } catch {
            fail(with: error)
            end(with: .failure(error))
        }
    }

    /// Waits until fewer than ``highWaterMark`` bytes wait for the session; `false` once stopped.
    private func waitForRoom() async -> Bool {
        await withUnsafeContinuation { continuation in
            let resumesNow = state.withLock { state -> Bool in
                guard !state.isStopped, state.bufferedByteCount >= Self.highWaterMark else { return true }
                state.producer = continuation
                return false
            }
            if resumesNow { continuation.resume() }
        }
        return !state.withLock { $0.isStopped }
    }

    private func end(with ending: Result<Void, any Error>) {
        let wakesReader = state.withLock { state -> Bool in
            state.ending = ending
            defer { state.readerWaits = false }
            return state.readerWaits
        }
        if wakesReader { dataArrived.signal() }
    }

    // MARK: - The session's thread

    /// Copies up to `maxLength` bytes of the body into `buffer`, waiting for them if none are
    /// buffered yet: the count copied, 0 at the end of the body, -1 when the stream failed or the
    /// exchange ended. Called by one thread at a time, the session's.
    func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        while true {
            enum Step {
                case copy(Data)
                case end
                case fail
                case wait
            }
            let step = state.withLock { state -> Step in
                if state.isStopped { return .fail }
                if !state.front.isEmpty {
                    defer { state.front = Data() }
                    return .copy(state.front)
                }
                if !state.chunks.isEmpty { return .copy(state.chunks.removeFirst()) }
                switch state.ending {
                case .success?: return .end
                case .failure?: return .fail
                case nil:
                    state.readerWaits = true
                    return .wait
                }
            }
            switch step {
            case .copy(let chunk):
                // Copied outside the lock: only this thread takes from the front of the buffer.
                let count = min(maxLength, chunk.count)
                chunk.copyBytes(to: buffer, count: count)
                let producer = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                    if count < chunk.count, !state.isStopped { state.front = chunk.dropFirst(count) }
                    guard state.bufferedByteCount <= Self.lowWaterMark else { return nil }
                    defer { state.producer = nil }
                    return state.producer
                }
                producer?.resume()
                return count
            case .end:
                return 0
            case .fail:
                return -1
            case .wait:
                guard let stallLimit = Self.stallLimit else {
                    dataArrived.wait()
                    continue
                }
                guard dataArrived.wait(timeout: .now() + stallLimit.seconds) == .timedOut else { continue }
                // Signalled just as the wait gave up: the signal is taken, and the chunk read.
                let isStalled = state.withLock { state -> Bool in
                    defer { state.readerWaits = false }
                    return state.readerWaits
                }
                guard isStalled else {
                    dataArrived.wait()
                    continue
                }
                fail(with: NetworkError.timedOut(after: stallLimit))
                stop()
                return -1
            }
        }
    }
}

#if canImport(FoundationNetworking)
    /// Where the streams of uploads are pulled on Linux: a queue of its own, since the threads of
    /// the concurrency runtime may all be waiting for FoundationNetworking's queue, which waits for
    /// the stream (see ``StreamedUploadBody``).
    final class UploadPullExecutor: TaskExecutor {
        static let shared = UploadPullExecutor()

        private let queue = DispatchQueue(label: "ECNetworking.upload-pull", attributes: .concurrent)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// The `InputStream` FoundationNetworking reads a streamed body from: it asks
    /// `hasBytesAvailable` before each read and ends the body at `false`, so that says `true`
    /// until the body has ended, and each read waits for its bytes (see ``StreamedUploadBody``).
    final class StreamedUploadInputStream: InputStream {
        private let body: StreamedUploadBody
        /// Read and set on the session's thread, and read by whoever asks; hence the lock.
        private let status = LockedState(Stream.Status.notOpen)

        init(_ body: StreamedUploadBody) {
            self.body = body
            super.init(data: Data())
        }

        override func open() {
            status.withLock { $0 = .open }
        }

        override func close() {
            status.withLock { $0 = .closed }
        }

        override var streamStatus: Stream.Status {
            status.withLock { $0 }
        }

        override var streamError: (any Error)? {
            status.withLock { $0 } == .error ? NetworkError.invalidRequest(reason: "the body stream failed") : nil
        }

        override var hasBytesAvailable: Bool {
            status.withLock { $0 } == .open
        }

        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
            let count = body.read(buffer, maxLength: length)
            if count <= 0 { status.withLock { $0 = count == 0 ? .atEnd : .error } }
            return count
        }

        override func getBuffer(
            _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
        ) -> Bool {
            false
        }
    }

    extension StreamedUploadBody {
        /// The stream a session reads this body from.
        func makeInputStream() -> InputStream {
            StreamedUploadInputStream(self)
        }
    }
#else
    extension StreamedUploadBody {
        /// The stream a session reads this body from: the reading half of a bound pair, whose
        /// writing half a thread of its own fills from the buffer. Apple's `URLSession` does not
        /// read an `InputStream` subclass of one's own.
        func makeInputStream() -> InputStream {
            var input: InputStream?
            var output: OutputStream?
            Stream.getBoundStreams(withBufferSize: 65_536, inputStream: &input, outputStream: &output)
            // Unsafe: the pair is made here and the writing half used by the thread alone from now on.
            nonisolated(unsafe) let writer = output!
            Thread { [self] in copy(to: writer) }.start()
            return input!
        }

        /// Copies the body into `output` until it ends, then closes it; a blocking loop, on the
        /// thread `makeInputStream()` started.
        private func copy(to output: OutputStream) {
            output.open()
            defer { output.close() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, maxLength: $0.count) }
                // The end, or a failure the exchange has already been told of.
                guard count > 0 else { return }
                var written = 0
                while written < count {
                    let result = buffer.withUnsafeBufferPointer {
                        output.write($0.baseAddress! + written, maxLength: count - written)
                    }
                    guard result > 0 else {
                        // The session stopped reading: the exchange has ended or is ending.
                        stop()
                        return
                    }
                    written += result
                }
            }
        }
    }
#endif
