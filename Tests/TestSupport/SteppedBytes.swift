import Foundation

/// `count` bytes, byte `i` being `i / step` truncated to a byte: one period of the pattern is
/// computed and the rest copied from it. Computed a byte at a time, a 32 MiB body held one of the
/// concurrency runtime's threads for over 80 s under ThreadSanitizer beside a build, while another
/// test waited on the runtime's second thread for the same static: every test of the process stood
/// still, and sends in other suites ran past their deadlines.
public func steppedBytes(count: Int, every step: Int) -> Data {
    var data = Data((0..<256 * step).map { UInt8(truncatingIfNeeded: $0 / step) })
    while data.count < count { data.append(data.prefix(count - data.count)) }
    return data.prefix(count)
}
