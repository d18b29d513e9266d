import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new file of the library's own in the temporary directory, removed when the last reference
/// goes: a request body written to disk lives exactly as long as the send that sends it.
///
/// Created as every file the library writes is, readable and writable by the user alone (0600,
/// since the body may hold what a form uploads, a password or a document), and exclusively
/// (`O_EXCL`): in a folder every user can write to, a file or a link someone else put at the name
/// makes the creation fail rather than be written through.
final class TemporaryFile: Sendable {
    let url: URL

    private init(url: URL) {
        self.url = url
    }

    /// Creates the file and returns it with a handle open for writing, which closes its descriptor
    /// when released. Synchronous file I/O: call it off the concurrency runtime's threads.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the file cannot be created.
    static func create(prefix: String) throws -> (file: TemporaryFile, handle: FileHandle) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        let descriptor = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode_t(0o600))
        }
        guard descriptor >= 0 else {
            throw NetworkError.invalidRequest(reason: "a temporary file for the body could not be created")
        }
        return (TemporaryFile(url: url), FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    deinit {
        // One `unlink`, on whichever thread lets go last (usually the send's own as it ends), so
        // the file is gone by the time the send returns; it reads and writes no data.
        _ = url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } }
    }
}
