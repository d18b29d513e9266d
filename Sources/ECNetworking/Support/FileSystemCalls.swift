import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The few system calls the library makes itself for the files it writes (a disk store's entries,
/// a recorded archive), named apart from the calls they wrap so that `write` and `rename` resolve
/// to the system's functions.
enum FileSystemCalls {
    /// The permissions of every entry: the owner reads and writes, nobody else.
    private static let fileMode: mode_t = 0o600
    /// The permissions of a directory the store creates: the owner only.
    private static let directoryMode: mode_t = 0o700

    /// Creates the directory at `url` with mode 0700, its missing parents with the default mode.
    /// An existing directory is used as it is.
    static func createPrivateDirectory(at url: URL) throws {
        let path = url.path
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if mkdir(path, directoryMode) == 0 {
            // The umask may have taken bits away; setting the mode again makes it exact.
            guard chmod(path, directoryMode) == 0 else { throw currentError() }
        } else if errno != EEXIST {
            throw currentError()
        }
    }

    /// Creates the file at `path`, which must not exist yet (not even as a symbolic link), with
    /// mode 0600, and writes `contents`. Unlike `Data.write(to:)`, which calls `fsync` on Linux
    /// (milliseconds per file), this leaves flushing to the system: the rename that follows is what
    /// makes the entry appear whole.
    static func writeFile(_ contents: Data, toPath path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw currentError() }
        defer { _ = close(descriptor) }
        // Exact whatever the umask.
        guard fchmod(descriptor, fileMode) == 0 else { throw currentError() }
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    guard errno == EINTR else { throw currentError() }
                    continue
                }
                offset += written
            }
        }
    }

    /// Why ``readFile(atPath:upTo:)`` refused a file it opened: what is there is not a file the
    /// caller could have written, so the caller may remove it.
    enum RefusedFile: Error, Equatable {
        /// A device, a FIFO, a socket or a directory.
        case notRegular
        /// A regular file longer than the limit.
        case longerThan(Int)
    }

    /// The contents of the regular file at `path`, at most `limit` bytes long; a symbolic link
    /// there is an error, not followed (a `POSIXError`, as any failure to open), and anything but
    /// a regular file, or one longer, is ``RefusedFile``.
    ///
    /// Opened without blocking: a FIFO planted at `path` would otherwise hold the call (and every
    /// caller waiting on the same lock) until a writer opened it, whatever cancelled the send.
    static func readFile(atPath path: String, upTo limit: Int) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw currentError() }
        defer { _ = close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw currentError() }
        // A device, a FIFO or a socket is no entry, nor is a file longer than any entry kept.
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw RefusedFile.notRegular }
        guard info.st_size <= limit else { throw RefusedFile.longerThan(limit) }
        // One read of the size the file has now; a file that changed size meanwhile fails its
        // length check when decoded.
        var contents = Data(count: Int(info.st_size))
        var offset = 0
        while offset < contents.count {
            let count = contents.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0 {
                guard errno == EINTR else { throw currentError() }
                continue
            }
            if count == 0 { break }
            offset += count
        }
        return contents.prefix(offset)
    }

    /// A descriptor of the regular file at `path` (a symbolic link followed), opened for reading;
    /// `nil` when it cannot be opened or is not a regular file (a FIFO, a device, a directory), as
    /// for a request body, which must be a file of known length. Opened without blocking: a FIFO
    /// would otherwise hold the opening thread (one of the concurrency runtime's few) until a writer
    /// came, whatever deadline or cancellation the send has.
    static func openRegularFile(atPath path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Renames `source` to `destination`, replacing it in one step, so a reader opens either the
    /// old file or the new one, whole.
    static func replace(_ destination: String, with source: String) throws {
        guard rename(source, destination) == 0 else { throw currentError() }
    }

    /// Sets the file's modification date to now, without following a symbolic link; failure only
    /// costs accuracy of the order of use.
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
    }

    private static func currentError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
