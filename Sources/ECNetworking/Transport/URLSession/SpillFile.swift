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
/// closed, or when the process ends, whatever way it ends.
///
/// Not thread-safe: its exchange uses it under its lock.
struct SpillFile {
    private let descriptor: Int32
    private var writeOffset: Int64 = 0
    private var readOffset: Int64 = 0

    /// A new, empty file, or `nil` when none can be created.
    init?() {
        var template = Array((NSTemporaryDirectory() + "/ECNetworking-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// The bytes written and not yet read.
    var unreadCount: Int64 { writeOffset - readOffset }

    /// Appends `data`; `false` when the disk refused it.
    mutating func append(_ data: Data) -> Bool {
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
        if isWritten { writeOffset += Int64(data.count) }
        return isWritten
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
        return data
    }

    /// Closes the file, which frees its space.
    func close() {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }
}
