import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's resident memory, as Linux reports it.
public enum ProcessMemory {
    /// Whether this platform reports peak resident memory and lets a process reset it.
    public static let isMeasurable = FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")

    /// Whether this process runs under ThreadSanitizer or AddressSanitizer: each keeps shadow
    /// memory, and AddressSanitizer holds freed memory in quarantine (tens of MiB), so resident
    /// memory measures the sanitizer, and each slows a send enough to move deadlines.
    public static let isUnderSanitizer = ["__tsan_init", "__asan_init"].contains { (name: String) in
        dlsym(defaultHandle, name) != nil
    }

    /// `RTLD_DEFAULT`: every image of the process, searched in load order; a null handle on
    /// Linux, but not on Apple platforms, where a null handle is refused.
    private static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
            UnsafeMutableRawPointer(bitPattern: -2)
        #else
            nil
        #endif
    }

    /// Resets the peak to the current resident size, which it returns, in bytes.
    public static func resetPeak() -> Int {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return field("VmRSS")
    }

    /// The peak resident size since the last ``resetPeak()``, in bytes.
    public static func peak() -> Int {
        field("VmHWM")
    }

    /// Runs `test` of this test binary alone in a child process, with `environment` added to this
    /// process's and the path of a file in `outputVariable`, to which the test writes its baseline
    /// and peak resident memory (in bytes, separated by a space); returns them. The child must end
    /// within `timeout`.
    public static func measureInChildProcess(
        test: String, environment: [String: String], outputVariable: String, timeout: Duration = .seconds(90)
    ) async throws -> (baseline: Int, peak: Int) {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("ecnetworking-memory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try await ChildTestProcess.run(
            test: test, environment: environment.merging([outputVariable: output]) { _, added in added },
            timeout: timeout)
        #expect(child.status == 0, "the child process failed; run \(test) with \(environment) to see why")
        let numbers = try String(contentsOfFile: output, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 2)
        return (numbers[0], numbers[1])
    }

    private static func field(_ name: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("\(name):") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1_024
        }
        return 0
    }
}
