import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a streamed body's bytes wait when its reader falls behind and the transfer cannot be
/// paused (FoundationNetworking, see ``URLSessionExchange``): a temporary file, written at its end
/// and read from its start, so memory stays bounded however slow the reader.
///
/// The file is removed from its folder as soon as it is opened, so it is never seen by anyone
/// else (it is created readable by the user alone), and its space returns to the disk when it is
/// closed, or when the process ends, whatever way it ends. Being unlinked, it does not show in
/// `du`; that is why it has a size limit, and a folder that can be chosen: the default temporary
/// folder is often a `tmpfs`, that is memory.
///
/// What the reader has read gives its space back as it goes (on Linux, the read range's blocks
/// are released with `fallocate`'s hole punching, which ext4, XFS, Btrfs and tmpfs support), so the
/// file takes no more space than the bytes still unread, and the limit bounds how far the reader
/// is behind, however long the body. On a file system that cannot punch holes, the limit bounds
/// the file's whole size instead, as every byte written keeps its space until the file is closed.
///
/// Not thread-safe: its exchange uses it under its lock.
struct SpillFile {
    /// Where a transport's spill files go and how large each may grow.
    struct Settings: Sendable {
        /// The folder, or `nil` for `NSTemporaryDirectory()`.
        var directory: URL?
        /// The most bytes a file may hold; past it, ``append(_:)`` refuses.
        var limit: Int

        /// 64 MiB in the temporary folder.
        static let `default` = Settings(directory: nil, limit: 64 * 1_048_576)
    }

    /// What ``append(_:)`` did.
    enum AppendOutcome {
        case appended
        /// The file would have grown past its limit; nothing was written.
        case overLimit
        /// The disk refused the bytes.
        case failed
    }

    private let descriptor: Int32
    private let limit: Int
    private var writeOffset: Int64 = 0
    private var readOffset: Int64 = 0
    /// Where the space already given back ends; `nil` once the file system refused to give any
    /// back, which makes the limit bound the file's whole size.
    private var releasedOffset: Int64? = 0

    /// A new, empty file in `settings`' folder, or `nil` when none can be created there.
    init?(_ settings: Settings) {
        let directory = settings.directory?.path ?? NSTemporaryDirectory()
        var template = Array((directory + "/ECNetworking-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { Self.makeFile($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        // A file system that will not unlink it (an append-only folder, say) would keep the body
        // under a name after the process ends: no byte goes into such a file.
        guard template.withUnsafeBufferPointer({ unlink($0.baseAddress!) }) == 0 else {
            Self.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.limit = settings.limit
    }

    /// The bytes written and not yet read.
    var unreadCount: Int64 { writeOffset - readOffset }

    /// The path the open file had, as the system tells it (on Linux with " (deleted)" after it),
    /// for tests to check the folder it was made in; `nil` where the system cannot tell.
    var systemPath: String? {
        #if os(Linux)
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        #else
            nil
        #endif
    }

    /// Appends `data` at the end, unless the space the file takes would grow past its limit: the
    /// bytes unread, or, where read bytes keep their space, everything written.
    mutating func append(_ data: Data) -> AppendOutcome {
        let taken = releasedOffset == nil ? writeOffset : unreadCount
        guard taken + Int64(data.count) <= Int64(limit) else { return .overLimit }
        let isWritten = data.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let written = pwrite(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(writeOffset) + off_t(done))
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += written
            }
            return true
        }
        guard isWritten else { return .failed }
        writeOffset += Int64(data.count)
        return .appended
    }

    /// Reads up to `limit` of the oldest unread bytes; `nil` when the disk failed.
    mutating func read(upTo limit: Int) -> Data? {
        let count = Int(min(Int64(limit), unreadCount))
        var data = Data(count: count)
        let isRead = data.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(readOffset) + off_t(done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { return false }
                done += read
            }
            return true
        }
        guard isRead else { return nil }
        readOffset += Int64(count)
        releaseReadSpace()
        return data
    }

    /// Gives the space of the whole blocks already read back to the file system; on the first
    /// refusal, stops trying (see the type's comment).
    private mutating func releaseReadSpace() {
        #if os(Linux)
            guard let released = releasedOffset else { return }
            // Whole 4 KiB blocks only: a partly read block keeps its bytes.
            let end = readOffset & ~4_095
            guard end > released else { return }
            // FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE (linux/falloc.h, which Glibc does not
            // bring in): the range reads as zeros from now on, and the file's length is unchanged.
            let punchHoleKeepingSize: Int32 = 0x02 | 0x01
            if let fallocate = Self.fallocate,
                fallocate(descriptor, punchHoleKeepingSize, off_t(released), off_t(end - released)) == 0
            {
                releasedOffset = end
            } else {
                releasedOffset = nil
            }
        #else
            releasedOffset = nil
        #endif
    }

    /// Creates the file `template` names (see `mkstemp`), closed on exec as every other file the
    /// library opens: a process the app starts must not inherit a descriptor to a response's body.
    /// `mkstemp` opens without the flag; `mkostemp`, where the C library has it, sets it in the same
    /// call, where setting it after could race a `fork` on another thread.
    private static func makeFile(_ template: UnsafeMutablePointer<CChar>) -> Int32 {
        #if os(Linux)
            if let mkostemp { return mkostemp(template, O_CLOEXEC) }
        #endif
        let descriptor = mkstemp(template)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
    }

    #if os(Linux)
        /// The C library's `mkostemp`, looked up once, as `fallocate` is (Glibc's module map
        /// declares it only for `_GNU_SOURCE`).
        private static let mkostemp: (@convention(c) (UnsafeMutablePointer<CChar>, Int32) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mkostemp") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<CChar>, Int32) -> Int32).self)
        }()

        /// The C library's `fallocate`, looked up once: Glibc's module map leaves it out (it is
        /// declared only for `_GNU_SOURCE`), though glibc and musl both export it.
        private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
        }()
    #endif

    /// Closes the file, which frees its space.
    func close() {
        Self.close(descriptor)
    }

    private static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }

    /// Whether the descriptor is closed when the process executes another program.
    var closesOnExec: Bool {
        fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0
    }
}
