import Foundation

/// A ``ResponseStore`` in a directory, for responses worth keeping across launches.
///
/// Each response is one file, named by a SHA-256 digest of its key (and of its
/// ``StoragePartition``) and written atomically (a temporary file with a random name in the same
/// directory, renamed over the old one). Neither the key nor the partition's identity is written
/// anywhere, only their digests. Only the owner can read the store: its directory is created with
/// mode 0700 and each file with 0600, and no file is ever written through a symbolic link. The directory keeps at most ``byteBudget``
/// bytes of files; a write past the budget removes the least recently used entries first, and the
/// order of use survives a relaunch through the files' modification dates. A file that is damaged
/// or cut short (a crash, a full disk, a stray write), or holds implausible values (a date that is
/// not a number or lies in the future, a status outside 100...599), is removed when read, as if
/// it had never been stored.
///
/// Any number of stores and networks in one process may share a directory: they share one index
/// and one lock, so their reads, writes and evictions never interleave. Several processes may
/// share it too without ever reading a torn file, but each keeps its own budget. Files are not
/// flushed to the disk before the rename: after a power loss an entry may be missing, never wrong.
/// Reads, writes and removals run on a dispatch queue of the directory's, never on the calling
/// task's thread: a file operation blocks its thread, which Swift's small cooperative pool cannot
/// spare. Opening a store reads the directory where it is called.
///
/// ```swift
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
/// let store = try DiskResponseStore(directory: caches.appendingPathComponent("responses"))
/// ```
public final class DiskResponseStore: ResponseStore {
    /// The directory the files are in.
    public let directory: URL
    /// The most bytes of files kept at once.
    public let byteBudget: Int
    private let shared: DiskResponseDirectory

    /// Opens the store in `directory`, creating it (mode 0700) if missing, and removes the least recently used
    /// entries already there until they fit `byteBudget` (50 MiB by default).
    ///
    /// - Throws: the file system's error when the directory cannot be created.
    public init(directory: URL, byteBudget: Int = 50 * 1024 * 1024) throws {
        self.directory = directory
        self.byteBudget = max(0, byteBudget)
        self.shared = try DiskResponseDirectory.shared(at: directory)
        shared.trim(to: self.byteBudget)
    }

    /// The bytes of entry files in the directory now, as this process knows them.
    public var byteCount: Int {
        shared.byteCount
    }

    /// The number of entries in the directory now, as this process knows them.
    public var count: Int {
        shared.count
    }

    /// Reads the response stored under `key` and marks it used; a damaged entry is removed and
    /// reads as `nil`.
    public func storedResponse(for key: String) async -> StoredResponse? {
        await shared.perform { [byteBudget] in $0.read(key, byteBudget: byteBudget) }
    }

    /// Writes `response` under `key`, then removes the least recently used entries until the
    /// directory is within the budget.
    public func store(_ response: StoredResponse, for key: String) async {
        // Encoding happens before taking the directory's lock, so other stores wait only for the I/O.
        let digest = StoredResponseEnvelope.keyDigest(key)
        let contents = StoredResponseEnvelope.encode(response, keyDigest: digest)
        await shared.perform { [byteBudget] in $0.write(contents, for: key, digest: digest, budget: byteBudget) }
    }

    /// Removes the response stored under `key`, if any.
    public func removeResponse(for key: String) async {
        await shared.perform { $0.remove(key) }
    }

    /// Removes every entry; other files in the directory are left alone.
    public func removeAll() async {
        await shared.perform { $0.removeAll() }
    }

    /// Removes every entry of `partition`, found by file name without reading the files; other
    /// entries are kept.
    public func removeAll(in partition: StoragePartition) async {
        await shared.perform { $0.removeAll(in: partition) }
    }
}
