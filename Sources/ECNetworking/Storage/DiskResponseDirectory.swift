import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One directory of stored responses, shared by every ``DiskResponseStore`` over it in this
/// process, with the lock that serialises their reads and writes and the index of its entries in
/// order of use.
///
/// Only the owner may read it: the directory is created with mode 0700 and every file with 0600,
/// set explicitly whatever the process's umask. A file is written under a random temporary name
/// opened with `O_CREAT | O_EXCL | O_NOFOLLOW`, so a file or symbolic link planted in the directory
/// can neither be predicted nor written through, then renamed into place; entries are read with
/// `O_NOFOLLOW` too.
///
/// Stores over the same directory share one instance (found through a process-wide registry keyed
/// by the resolved path), so two networks writing the same directory cannot interleave a write
/// with an eviction or count the budget twice. The index is built from the files on first use:
/// their modification dates give the order of use, which is why a read touches its file.
final class DiskResponseDirectory: Sendable {
    /// The extension of an entry's file.
    static let entryExtension = "response"
    /// The extension of a file being written, renamed to an entry once complete.
    static let temporaryExtension = "tmp"
    /// How old a temporary file must be before it counts as left behind by a crash and is removed;
    /// younger ones may belong to another process writing right now.
    private static let abandonedTemporaryAge: TimeInterval = 60

    /// The directories in use, by resolved path. The references are weak: once no store uses a
    /// directory its index goes, and the next store to open it builds it again from the files.
    private static let registry = LockedState<[String: WeakReference<DiskResponseDirectory>]>([:])

    /// The directory, with symbolic links resolved.
    let url: URL
    /// Entry file names from the least to the most recently used, each costing its file's size.
    private let index: LockedState<LeastRecentlyUsedList<Void>>
    /// Where the stores' file I/O runs. A read or write of a file blocks its thread, and under
    /// ``index``'s lock a store also waits for the others: on a thread of Swift's cooperative pool
    /// (two threads on a two-core machine) that stalled every task of the process meanwhile.
    private let queue: DispatchQueue

    /// Runs `work` on the directory's own queue and waits for it without holding a thread of the
    /// caller's.
    func perform<Result: Sendable>(_ work: @escaping @Sendable (DiskResponseDirectory) -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work(self)) }
        }
    }

    /// The directory at `url`, created if missing, shared with every other store over it.
    static func shared(at url: URL) throws -> DiskResponseDirectory {
        try registry.withLock { registry in
            try FileSystemCalls.createPrivateDirectory(at: url)
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            if let existing = registry[path]?.get() { return existing }
            registry = registry.filter { $0.value.get() != nil }
            let directory = DiskResponseDirectory(url: URL(fileURLWithPath: path, isDirectory: true))
            let reference = WeakReference<DiskResponseDirectory>()
            reference.set(directory)
            registry[path] = reference
            return directory
        }
    }

    private init(url: URL) {
        self.url = url
        self.index = LockedState(Self.scan(url))
        self.queue = DispatchQueue(label: "ECNetworking.DiskResponseStore")
    }

    /// The size of every entry known, in bytes.
    var byteCount: Int {
        index.withLock { $0.totalCost }
    }

    /// The number of entries known.
    var count: Int {
        index.withLock { $0.count }
    }

    /// The name of the file that holds the entry for `key`: a SHA-256 digest, since a key may be
    /// long, hold characters a file name cannot, or hold what no file name should show (a user
    /// id, a query). A key of a partition gets its partition's digest as a prefix, so the
    /// partition's files can be found without reading them.
    static func fileName(for key: String) -> String {
        fileName(for: key, digest: StoredResponseEnvelope.keyDigest(key))
    }

    /// ``fileName(for:)`` from the key's digest, when it is at hand already.
    static func fileName(for key: String, digest: [UInt8]) -> String {
        let partition = StoragePartition.digest(ofKey: key).map { $0 + "-" } ?? ""
        return partition + SHA256.hexadecimal(digest.prefix(16)) + "." + entryExtension
    }

    /// Reads the entry for `key` and marks it used. A damaged, truncated or implausible file is
    /// removed, and so is one longer than `byteBudget`, which no store of that budget keeps; a
    /// file that holds another key (the two keys' names collide) is left for that key.
    func read(_ key: String, byteBudget: Int) -> StoredResponse? {
        let digest = StoredResponseEnvelope.keyDigest(key)
        let name = Self.fileName(for: key, digest: digest)
        let file = url.appendingPathComponent(name, isDirectory: false)
        return index.withLock { index in
            // A file missing from the index may still have been written by another process.
            let data: Data
            do {
                data = try FileSystemCalls.readFile(atPath: file.path, upTo: byteBudget)
            } catch {
                // Not an entry this store could have written: gone, so it blocks no later one.
                if error is FileSystemCalls.RefusedFile { try? FileManager.default.removeItem(at: file) }
                index.remove(name)
                return nil
            }
            guard let entry = StoredResponseEnvelope.decode(data) else {
                try? FileManager.default.removeItem(at: file)
                index.remove(name)
                return nil
            }
            guard entry.keyDigest == digest else { return nil }
            index.insert((), cost: data.count, for: name)
            // The modification date keeps the order of use for the index built at the next launch.
            FileSystemCalls.touch(file.path)
            return entry.response
        }
    }

    /// Writes `contents` as the entry for `key` (a temporary file renamed over the old one, so a
    /// reader sees the old entry or the new one, never half of one), then removes the least
    /// recently used entries until the directory is within `budget`. Contents larger than the
    /// budget are not written, and the old entry goes: it is no longer the current response.
    func write(_ contents: Data, for key: String, digest: [UInt8], budget: Int) {
        let name = Self.fileName(for: key, digest: digest)
        let file = url.appendingPathComponent(name, isDirectory: false)
        // A random name cannot be guessed and planted in advance, and keeps another process's
        // temporary file apart.
        let temporary = url.appendingPathComponent(
            "\(name).\(UUID().uuidString).\(Self.temporaryExtension)", isDirectory: false)
        index.withLock { index in
            guard contents.count <= budget else {
                try? FileManager.default.removeItem(at: file)
                index.remove(name)
                return
            }
            do {
                try writeRecreatingDirectory(contents, to: temporary)
                try FileSystemCalls.replace(file.path, with: temporary.path)
            } catch {
                // A store is an optimisation: a full disk leaves the old entry rather than failing
                // the send.
                try? FileManager.default.removeItem(at: temporary)
                return
            }
            index.insert((), cost: contents.count, for: name)
            trim(&index, to: budget)
        }
    }

    /// Removes the entry for `key`, if any.
    func remove(_ key: String) {
        let name = Self.fileName(for: key)
        index.withLock { index in
            try? FileManager.default.removeItem(at: url.appendingPathComponent(name, isDirectory: false))
            index.remove(name)
        }
    }

    /// Removes every entry and temporary file; other files in the directory are left alone.
    func removeAll() {
        index.withLock { index in
            let files = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
            for file in files
            where file.pathExtension == Self.entryExtension || file.pathExtension == Self.temporaryExtension {
                try? FileManager.default.removeItem(at: file)
            }
            index.removeAll()
        }
    }

    /// Removes every entry of `partition`; other entries and files are left alone.
    func removeAll(in partition: StoragePartition) {
        let prefix = partition.digest + "-"
        index.withLock { index in
            let files = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
            for file in files
            where file.pathExtension == Self.entryExtension && file.lastPathComponent.hasPrefix(prefix) {
                try? FileManager.default.removeItem(at: file)
                index.remove(file.lastPathComponent)
            }
        }
    }

    /// Removes the least recently used entries until the directory is within `budget`.
    func trim(to budget: Int) {
        index.withLock { trim(&$0, to: budget) }
    }

    private func trim(_ index: inout LeastRecentlyUsedList<Void>, to budget: Int) {
        while index.totalCost > budget, let oldest = index.removeOldest() {
            try? FileManager.default.removeItem(at: url.appendingPathComponent(oldest.key, isDirectory: false))
        }
    }

    /// Writes `contents`, creating the directory again if it was removed since the store opened it.
    private func writeRecreatingDirectory(_ contents: Data, to file: URL) throws {
        do {
            try FileSystemCalls.writeFile(contents, toPath: file.path)
        } catch {
            try FileSystemCalls.createPrivateDirectory(at: url)
            try FileSystemCalls.writeFile(contents, toPath: file.path)
        }
    }

    /// Whether `name` has the shape ``fileName(for:)`` gives: a key digest, optionally after a
    /// partition digest and a dash, each 32 hexadecimal digits.
    private static func isCurrentEntryName(_ name: String) -> Bool {
        let stem = name.dropLast(entryExtension.count + 1)
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } }
    }

    /// The index of the entries already in `directory`, in order of modification; removes
    /// temporary files left behind by a crash.
    private static func scan(_ directory: URL) -> LeastRecentlyUsedList<Void> {
        let keys: Set<URLResourceKey> = [.contentModificationDateKey, .fileSizeKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: Array(keys))) ?? []
        var entries: [(name: String, modified: Date, size: Int)] = []
        for file in files {
            let values = try? file.resourceValues(forKeys: keys)
            let modified = values?.contentModificationDate ?? .distantPast
            switch file.pathExtension {
            case entryExtension where !isCurrentEntryName(file.lastPathComponent):
                // Written by an older version, which kept the plain key (query included) in the
                // file: it can never be read again, so it goes now rather than when evicted.
                try? FileManager.default.removeItem(at: file)
            case entryExtension:
                entries.append((file.lastPathComponent, modified, values?.fileSize ?? 0))
            case temporaryExtension where -modified.timeIntervalSinceNow > abandonedTemporaryAge:
                try? FileManager.default.removeItem(at: file)
            default:
                continue
            }
        }
        entries.sort { ($0.modified, $0.name) < ($1.modified, $1.name) }
        var index = LeastRecentlyUsedList<Void>()
        for entry in entries {
            index.insert((), cost: entry.size, for: entry.name)
        }
        return index
    }
}
