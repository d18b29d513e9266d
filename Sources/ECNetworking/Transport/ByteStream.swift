import Foundation

/// Bytes that arrive over time, as chunks of `Data`: a response body as it comes off the wire, or
/// a request body produced as it is sent.
///
/// It is read once: a second iteration throws ``NetworkError/invalidRequest(reason:)`` rather than
/// share, or silently replay, bytes that are already consumed. A stream over a transport's
/// connection reads no further ahead than its consumer, and cancelling the task that iterates it
/// ends the transfer.
public struct ByteStream: AsyncSequence, Sendable {
    /// A chunk of bytes; never empty.
    public typealias Element = Data

    private let source: Source

    private enum Source: Sendable {
        case chunk(Data)
        case once(LockedState<Reading?>)
    }

    /// How a stream read once is read: pulled, chunk by chunk, by an iterator, or, when its
    /// transport can, pushed to a receiver (see ``push(to:)``).
    private struct Reading: Sendable {
        let makeIterator: @Sendable () -> AsyncIterator
        let push: (@Sendable (@escaping ChunkReceiver) async throws -> Void)?
    }

    /// An empty stream.
    public init() {
        source = .chunk(Data())
    }

    /// A stream of `data`, in one chunk; it can be read any number of times.
    public init(_ data: Data) {
        source = .chunk(data)
    }

    /// A stream of the chunks `sequence` produces, read once; empty chunks are skipped.
    public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == Data {
        self.init(makeIterator: { Self.iterator(of: sequence) })
    }

    /// A stream of the chunks `sequence` produces, read once, which a push (see ``push(to:)``)
    /// reads in a task that prefers `executor`: the receiver then takes each chunk on that
    /// executor, where the read of the next one resumes too, so a receiver that blocks (a
    /// download writing to its file) holds none of the concurrency runtime's threads and the
    /// chunk costs no hop beyond the one that brought it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks, pushingOn executor: any TaskExecutor)
    where Chunks.Element == Data {
        source = .once(
            LockedState(
                Reading(
                    makeIterator: { Self.iterator(of: sequence) },
                    push: { receiver in
                        try await withTaskExecutorPreference(executor) {
                            var iterator = Self.iterator(of: sequence)
                            while let chunk = try await iterator.next() {
                                try receiver(chunk)
                            }
                        }
                    })))
    }

    /// An iterator over `sequence` that skips its empty chunks.
    private static func iterator<Chunks: AsyncSequence & Sendable>(of sequence: Chunks) -> AsyncIterator
    where Chunks.Element == Data {
        var iterator = sequence.makeAsyncIterator()
        return AsyncIterator {
            while let chunk = try await iterator.next() {
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }

    /// A stream whose chunks `next` returns, one per call, until it returns `nil`; read once. This
    /// is the form a transport adapts its own body type to.
    public init(next: @escaping @Sendable () async throws -> Data?) {
        self.init(makeIterator: { AsyncIterator(next: next) })
    }

    init(makeIterator: @escaping @Sendable () -> AsyncIterator) {
        source = .once(LockedState(Reading(makeIterator: makeIterator, push: nil)))
    }

    /// A stream whose chunks `next` returns, or which `push` hands to a receiver as they arrive;
    /// read once, either way.
    init(
        next: @escaping @Sendable () async throws -> Data?,
        push: @escaping @Sendable (@escaping ChunkReceiver) async throws -> Void
    ) {
        source = .once(LockedState(Reading(makeIterator: { AsyncIterator(next: next) }, push: push)))
    }

    /// Whether ``push(to:)`` would push: the stream has not been read, and its transport hands
    /// chunks over where they arrive.
    var isPushable: Bool {
        guard case .once(let state) = source else { return false }
        return state.withLock { $0?.push != nil }
    }

    /// Hands every chunk to `receiver` where it arrives (a transport's own thread), in order, and
    /// returns at the stream's end; `false` at once, reading nothing, for a stream that can only
    /// be pulled. What `receiver` throws ends the stream and its transfer with that error. The
    /// reader that cannot keep up is then the transport's pace: what a download writing each
    /// chunk to its file wants, rather than bytes piling up while its task waits to be run.
    func push(to receiver: @escaping ChunkReceiver) async throws -> Bool {
        guard case .once(let state) = source else { return false }
        let push = state.withLock { reading -> (@Sendable (@escaping ChunkReceiver) async throws -> Void)? in
            guard let push = reading?.push else { return nil }
            reading = nil
            return push
        }
        guard let push else { return false }
        try await push(receiver)
        return true
    }

    /// The bytes of a stream made from one `Data`, which needs no reading; `nil` for any other.
    var gathered: Data? {
        if case .chunk(let data) = source { return data }
        return nil
    }

    /// Reads the stream to its end, failing with ``NetworkError/responseTooLarge(limit:)`` as soon
    /// as more than `limit` bytes have arrived, before the rest is read.
    public func collect(upTo limit: Int?) async throws -> Data {
        if case .chunk(let data) = source {
            if let limit, data.count > limit { throw NetworkError.responseTooLarge(limit: limit) }
            return data
        }
        var collected = Data()
        for try await chunk in self {
            if let limit, chunk.count > limit - collected.count {
                throw NetworkError.responseTooLarge(limit: limit)
            }
            collected.append(chunk)
        }
        return collected
    }

    /// Starts reading the stream.
    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .chunk(let data):
            var pending: Data? = data.isEmpty ? nil : data
            return AsyncIterator {
                defer { pending = nil }
                return pending
            }
        case .once(let state):
            guard let makeIterator = state.withLock({ $0.take()?.makeIterator }) else {
                return AsyncIterator {
                    throw NetworkError.invalidRequest(reason: "a byte stream can be read only once")
                }
            }
            return makeIterator()
        }
    }

    /// Reads a stream's chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let nextChunk: () async throws -> Data?

        init(next: @escaping () async throws -> Data?) {
            self.nextChunk = next
        }

        /// The next chunk, or `nil` at the end.
        public mutating func next() async throws -> Data? {
            try await nextChunk()
        }
    }
}

/// Takes a chunk of a pushed stream (see ``ByteStream/push(to:)``) on the thread it arrived on;
/// throwing ends the stream with the error.
typealias ChunkReceiver = @Sendable (Data) throws -> Void

extension ByteStream {
    /// A stream of the file at `url`, read `chunkSize` bytes at a time as it is consumed. A file
    /// that cannot be opened, or that ends before `expectedLength` bytes, fails the read: a
    /// request must never go out shorter than the `Content-Length` it announced.
    init(readingFileAt url: URL, chunkSize: Int, expectedLength: Int?) {
        self.init(makeIterator: {
            var handle: FileHandle?
            var delivered = 0
            var isFinished = false
            return AsyncIterator {
                guard !isFinished else { return nil }
                do {
                    if handle == nil {
                        // Not `FileHandle(forReadingFrom:)`, which blocks on a FIFO put there.
                        guard let descriptor = FileSystemCalls.openRegularFile(atPath: url.path) else {
                            throw CocoaError(.fileReadNoPermission)
                        }
                        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                    }
                    if let chunk = try handle?.read(upToCount: chunkSize), !chunk.isEmpty {
                        delivered += chunk.count
                        return chunk
                    }
                } catch {
                    isFinished = true
                    try? handle?.close()
                    throw NetworkError.invalidRequest(
                        reason: "the body file \"\(url.lastPathComponent)\" could not be read")
                }
                isFinished = true
                try? handle?.close()
                if let expectedLength, delivered != expectedLength {
                    throw NetworkError.invalidRequest(
                        reason: "the body file \"\(url.lastPathComponent)\" changed size while it was sent")
                }
                return nil
            }
        })
    }
}
