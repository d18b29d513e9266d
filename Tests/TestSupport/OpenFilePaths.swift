import Foundation

/// The paths the process's open descriptors point to, as Linux tells them (an unlinked file shows
/// with " (deleted)" after its path); empty where the system has no `/proc/self/fd`.
public func openFilePaths() -> [String] {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }
}
