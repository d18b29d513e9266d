import Foundation

/// The file every upload client sends: `byteCount` bytes in the temporary directory, made once
/// and shared by the scenario's processes. Sparse (a hole the size of the body), so making it
/// writes nothing and reading it costs every client the same: the clients are measured, not the
/// disk.
enum UploadSource {
    /// Where the source of `byteCount` bytes is.
    static func url(byteCount: Int) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ecnetworking-benchmark-upload-\(byteCount).bin")
    }

    /// The source of `byteCount` bytes, made if it is missing or has another length.
    static func prepare(byteCount: Int) throws -> URL {
        let url = url(byteCount: byteCount)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        guard size != byteCount else { return url }
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(byteCount))
        return url
    }

    /// Removes every source made for `byteCounts`.
    static func remove(byteCounts: [Int]) {
        for byteCount in byteCounts { try? FileManager.default.removeItem(at: url(byteCount: byteCount)) }
    }
}
