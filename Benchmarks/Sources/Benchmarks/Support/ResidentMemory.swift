import Foundation

/// The process's resident memory, read from `/proc/self/statm` (Linux), where it is the current
/// value; `getrusage` only reports the peak, which cannot show memory coming back.
enum ResidentMemory {
    /// Resident bytes now, or `nil` where `/proc` is not available.
    static func current() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
