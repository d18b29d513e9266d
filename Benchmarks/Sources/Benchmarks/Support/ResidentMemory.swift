import Foundation

/// The process's resident memory, read from `/proc/self` (Linux), where it is the current value;
/// `getrusage` only reports the peak since the process started, which cannot show memory coming
/// back, nor the peak of one stretch of work.
enum ResidentMemory {
    /// Resident bytes now, or `nil` where `/proc` is not available.
    static func current() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Sets the peak ``peak()`` reports back to the resident bytes now, by writing `5` to
    /// `/proc/self/clear_refs` (Linux 4.0 and later); `false` where that is not possible.
    static func resetPeak() -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }

    /// The most bytes resident at once since the process started or ``resetPeak()`` was last
    /// called (`VmHWM` in `/proc/self/status`), or `nil` where `/proc` is not available. Unlike a
    /// reading taken now and then, it misses no short-lived peak.
    static func peak() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes * 1024
    }
}
