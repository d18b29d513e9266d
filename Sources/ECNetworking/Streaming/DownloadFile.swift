import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary file a download writes, beside its destination (readable by the user alone): a
/// new one, or the partial file of a broken download, reopened to take the rest of the body.
///
/// Every call on the file (open, write, truncate, fsync, close, rename, unlink) runs on a queue of
/// its own, or, for the writes of a pushed body, where each chunk arrives (``writeNow(_:)``):
/// never on the concurrency runtime's threads, which a slow disk or a long fsync would hold.
final class DownloadFile: Sendable {
    private let queue: DispatchQueue
    /// The file's path.
    let url: URL
    /// The open file; `nil` once closed, so that no path closes it twice (its number may already
    /// belong to another file by then).
    private let descriptor: InlineLockedState<Int32?>

    private init(queue: DispatchQueue, descriptor: Int32, url: URL) {
        self.queue = queue
        self.descriptor = InlineLockedState(descriptor)
        self.url = url
    }

    /// The temporary file's name for a destination named `name`: hidden, unique, and within
    /// `NAME_MAX` (255 bytes) however long `name` is, which is shortened, on a character boundary,
    /// to leave room for the 47 bytes the rest takes.
    static func temporaryName(for name: String) -> String {
        temporaryPrefix(for: name) + UUID().uuidString + writingSuffix
    }

    /// What every temporary name for a destination named `name` begins with: a dot, `name`
    /// (shortened to fit), a dot.
    private static func temporaryPrefix(for name: String) -> String {
        let room = 255 - 1 - (1 + 36 + writingSuffix.utf8.count)
        var kept = Substring(name)
        while kept.utf8.count > room { kept.removeLast() }
        return "." + kept + "."
    }

    /// The end of the name of a file a download is writing; a process that died left such a file
    /// without its lock, which the next download to the same destination removes.
    private static let writingSuffix = ".download"
    /// The end of the name of a partial file kept for a resume (see ``keep()``), which only its
    /// ``ResumeData`` or a resume removes.
    private static let keptSuffix = ".partial"

    /// Whether `file` is a name ``temporaryName(for:)`` or ``keep()`` could have given beside
    /// `destination`: in its folder, hidden, ending in `.download` or `.partial`. Resume data may
    /// have been stored and edited, so nothing else is opened or removed on its word.
    static func isPartialFile(_ file: URL, for destination: URL) -> Bool {
        let name = file.lastPathComponent
        let prefix = temporaryPrefix(for: destination.lastPathComponent)
        guard file.isFileURL, destination.isFileURL, !name.contains("/"),
            file.deletingLastPathComponent().standardizedFileURL.path
                == destination.deletingLastPathComponent().standardizedFileURL.path,
            name.hasPrefix(prefix)
        else { return false }
        // The prefix for this destination, a UUID, a suffix: nothing else in the folder.
        let rest = name.dropFirst(prefix.count)
        for suffix in [writingSuffix, keptSuffix] where rest.hasSuffix(suffix) {
            return UUID(uuidString: String(rest.dropLast(suffix.count))) != nil
        }
        return false
    }

    /// Removes the partial file at `url` unless a download holds it (a resume in progress).
    static func removeUnlessInUse(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(url.path) }
        close(descriptor)
    }

    /// A new, empty temporary file beside `destination`, locked for as long as it is written.
    /// Then the temporary files of earlier downloads to `destination` whose process died (their
    /// lock gone, untouched for a minute) are removed.
    static func create(beside destination: URL) async throws -> DownloadFile {
        let queue = DispatchQueue(label: "ECNetworking.DownloadFile")
        let folder = destination.deletingLastPathComponent()
        let name = temporaryName(for: destination.lastPathComponent)
        let url = folder.appendingPathComponent(name)
        return try await run(on: queue) {
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw DownloadError.cannotCreateFile(url, errorCode: errno) }
            // Best effort: a file system without locks (some network ones) keeps its files.
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
            removeAbandoned(in: folder, prefix: temporaryPrefix(for: destination.lastPathComponent), except: name)
            return DownloadFile(queue: queue, descriptor: descriptor, url: url)
        }
    }

    /// Removes the files in `folder` named `prefix…​.download` (but `own`) that no live download
    /// holds: regular files of this user, untouched for a minute (so that a file another process
    /// has just made, and not yet locked, is left alone), whose lock can be taken.
    private static func removeAbandoned(in folder: URL, prefix: String, except own: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = time(nil) - 60
        for name in names where name != own && name.hasPrefix(prefix) && name.hasSuffix(writingSuffix) {
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == getuid(),
                modificationTime(of: status) < cutoff
            else { continue }
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    /// When the file was last written, in seconds since 1970.
    private static func modificationTime(of status: stat) -> time_t {
        #if canImport(Darwin)
            status.st_mtimespec.tv_sec
        #else
            status.st_mtim.tv_sec
        #endif
    }

    /// What became of reopening a partial file.
    enum Reopened {
        /// Open at its end, cut to the bytes the resume data says it holds, and locked.
        case file(DownloadFile)
        /// Another download is resuming it: it is left alone.
        case inUse
        /// There is none that can be trusted: missing, shorter than that, not a regular file the
        /// user alone owns and reads (a link, a FIFO), or not named as the library names them.
        case unusable
    }

    /// The partial file of `resumeData`, reopened to take the rest of the body.
    static func reopen(_ resumeData: ResumeData) async -> Reopened {
        guard isPartialFile(resumeData.partialFileURL, for: resumeData.destination), resumeData.byteCount > 0 else {
            return .unusable
        }
        let queue = DispatchQueue(label: "ECNetworking.DownloadFile")
        let url = resumeData.partialFileURL
        return
            (try? await run(on: queue) { () -> Reopened in
                // Without blocking: a FIFO of that name would hold the queue for ever.
                let descriptor = open(url.path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                guard descriptor >= 0 else { return .unusable }
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                    close(descriptor)
                    return .inUse
                }
                var status = stat()
                let usable =
                    fstat(descriptor, &status) == 0
                    && (status.st_mode & S_IFMT) == S_IFREG && status.st_uid == getuid()
                    && (status.st_mode & 0o077) == 0 && Int64(status.st_size) >= resumeData.byteCount
                    && ftruncate(descriptor, off_t(resumeData.byteCount)) == 0 && lseek(descriptor, 0, SEEK_END) >= 0
                guard usable else {
                    close(descriptor)
                    return .unusable
                }
                // Writes may block again from here on: a regular file never makes them wait anyway.
                _ = fcntl(descriptor, F_SETFL, O_WRONLY)
                return .file(DownloadFile(queue: queue, descriptor: descriptor, url: url))
            }) ?? .unusable
    }

    /// Appends `data` to the file.
    func write(_ data: Data) async throws {
        try await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0 }) else { return }
            if let code = writeAll(data, to: descriptor) { throw DownloadError.cannotWrite(url, errorCode: code) }
        }
    }

    /// Appends `data` to the file on the calling thread: where a download's body is pushed (see
    /// `ByteStream.push(to:)`; the transport's queue, or `BlockingWorkExecutor`), rather than the
    /// file's queue. The descriptor's lock
    /// is held across the write, so that a close on the file's queue (a download that ended while a
    /// chunk was being written: cancelled, timed out) waits for the write to end instead of
    /// closing a number that may be another file's by the time it is used. A closed file fails.
    func writeNow(_ data: Data) throws {
        try descriptor.withLock { descriptor in
            guard let descriptor else { throw DownloadError.cannotWrite(url, errorCode: EBADF) }
            if let code = writeAll(data, to: descriptor) { throw DownloadError.cannotWrite(url, errorCode: code) }
        }
    }

    /// Empties the file, for a body that starts over.
    func truncate() async throws {
        try await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0 }) else { return }
            guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw DownloadError.cannotWrite(url, errorCode: errno)
            }
        }
    }

    /// Closes the file and moves it to `destination` in one rename, so that even if the process
    /// dies `destination` holds the old file or the whole new one. With `flushing`, the file is
    /// flushed to the disk before the rename and the folder after it, so that the same holds
    /// after a power loss or a crash of the system, never a renamed file whose bytes were still in
    /// memory. Without `replacing`, a file already at `destination` fails with
    /// ``DownloadError/fileExists(_:)``. On failure the file is removed.
    func finish(movingTo destination: URL, replacing: Bool, flushing: Bool) async throws {
        try await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0.take() }) else { return }
            var failure: DownloadError?
            if flushing, fsync(descriptor) != 0 { failure = .cannotWrite(url, errorCode: errno) }
            if close(descriptor) != 0, failure == nil { failure = .cannotWrite(url, errorCode: errno) }
            if failure == nil {
                failure = replacing ? Self.rename(url, to: destination) : Self.link(url, to: destination)
            }
            if let failure {
                unlink(url.path)
                throw failure
            }
            // The rename is durable once the folder is flushed too. Best effort: some file systems
            // refuse to flush a folder, and the file is already whole and in place.
            guard flushing else { return }
            let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        }
    }

    /// Moves `file` to `destination`, replacing what is there.
    private static func rename(_ file: URL, to destination: URL) -> DownloadError? {
        Foundation.rename(file.path, destination.path) == 0 ? nil : .cannotMove(to: destination, errorCode: errno)
    }

    /// Moves `file` to `destination` only if nothing is there, in one step: a hard link fails
    /// when the name is taken, where a check before a rename would race a file made in between.
    /// A file system without hard links falls back to that check.
    private static func link(_ file: URL, to destination: URL) -> DownloadError? {
        if Foundation.link(file.path, destination.path) == 0 {
            unlink(file.path)
            return nil
        }
        let code = errno
        if code == EEXIST { return .fileExists(destination) }
        guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EMLINK else {
            return .cannotMove(to: destination, errorCode: code)
        }
        if access(destination.path, F_OK) == 0 { return .fileExists(destination) }
        return rename(file, to: destination)
    }

    /// Flushes the file and keeps it for a resume, under a name that ends in `.partial` (which no
    /// later download removes as abandoned), renamed before its lock goes with the close; its URL,
    /// or `nil` when that failed and the file was removed instead, since its bytes cannot be trusted.
    func keep() async -> URL? {
        (try? await Self.run(on: queue) { [self] () -> URL? in
            guard let descriptor = descriptor.withLock({ $0.take() }) else { return nil }
            var kept = url
            let name = url.lastPathComponent
            if name.hasSuffix(Self.writingSuffix) {
                kept = url.deletingLastPathComponent().appendingPathComponent(
                    name.dropLast(Self.writingSuffix.count) + Self.keptSuffix)
            }
            let flushed = fsync(descriptor) == 0
            let renamed = kept == url || Foundation.rename(url.path, kept.path) == 0
            if close(descriptor) == 0, flushed, renamed { return kept }
            unlink(renamed ? kept.path : url.path)
            return nil
        }) ?? nil
    }

    /// Closes and removes the file, after a failure or cancellation; nothing once it was finished
    /// or kept.
    func discard() async {
        _ = try? await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0.take() }) else { return }
            close(descriptor)
            unlink(url.path)
        }
    }

    /// Runs `work` on `queue` and hands back its outcome.
    private static func run<Value: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: work)) }
        }
    }
}

/// Writes all of `data` to `descriptor`; the `errno` of the failure, if one.
private func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
    data.withUnsafeBytes { buffer -> Int32? in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
