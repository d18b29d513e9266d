import Foundation

/// The CPU time the whole process has used, on every thread.
///
/// Wall time on this machine includes whatever else runs on its two cores (other engineers'
/// compilers push the load average to 10); CPU time counts only this process's own work, so the
/// in-memory figures stay comparable from run to run. Both are reported.
enum CPUTime {
    /// Nanoseconds of CPU used by the process so far.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
}
