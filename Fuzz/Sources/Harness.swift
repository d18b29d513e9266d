// The libFuzzer entry points shared by every fuzz target, built by scripts/fuzz.sh into one binary
// that the script links once under each target's name: the name the binary is started as picks the
// target, so a crash file is reproduced by running the same link on it.

import Foundation

/// One parser under fuzzing: what it is called, an input to run once before fuzzing starts, and
/// the check of one input, which stops the process (`fatalError`) when an invariant fails.
protocol FuzzTarget: SendableMetatype {
    static var name: String { get }
    /// Run once, untimed, before the first input: the first call of some Foundation APIs loads
    /// tables, and that must not count against the first input's time.
    static var warmUp: [UInt8] { get }
    static func run(_ input: [UInt8])
}

/// A target as the harness runs it. (Calling the static members through `any FuzzTarget.Type`
/// crashes the Swift 6.3 compiler, so each target is captured by a generic initializer.)
struct RegisteredTarget: Sendable {
    let name: String
    let warmUp: [UInt8]
    let run: @Sendable ([UInt8]) -> Void

    init<Target: FuzzTarget>(_ target: Target.Type) {
        name = Target.name
        warmUp = Target.warmUp
        run = { Target.run($0) }
    }
}

let targets = [
    RegisteredTarget(ServerSentEventsTarget.self),
    RegisteredTarget(ResponseLinesTarget.self),
    RegisteredTarget(MediaTypesTarget.self),
    RegisteredTarget(CacheControlTarget.self),
    RegisteredTarget(MultipartTarget.self),
    RegisteredTarget(StoredEntryTarget.self),
    RegisteredTarget(HeadersTarget.self),
    RegisteredTarget(URLRedactionTarget.self),
    RegisteredTarget(ContentRangeTarget.self),
    RegisteredTarget(ContentLengthTarget.self),
    RegisteredTarget(ContentDispositionTarget.self),
    RegisteredTarget(HTTPDateTarget.self),
    RegisteredTarget(SetCookieTarget.self),
]

// Set once in `LLVMFuzzerInitialize`, before libFuzzer calls `LLVMFuzzerTestOneInput` from the one
// thread it fuzzes on; never written again, so no two threads ever race on them.
nonisolated(unsafe) private var selectedTarget: RegisteredTarget?
nonisolated(unsafe) private var slowLimitNanoseconds: UInt64 = 100_000_000

/// Called by libFuzzer once, with its arguments: picks the target by the name the binary was started
/// as, reads the time limit, and warms the target up.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let program = argv.pointee[0].map { String(cString: $0) } ?? ""
    let name = URL(fileURLWithPath: program).lastPathComponent
    guard let target = targets.first(where: { $0.name == name }) else {
        let names = targets.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("fuzz: run this binary as one of: \(names)\n".utf8))
        exit(2)
    }
    if let limit = ProcessInfo.processInfo.environment["ECNETWORKING_FUZZ_SLOW_MS"].flatMap(UInt64.init) {
        slowLimitNanoseconds = limit * 1_000_000
    }
    target.run(target.warmUp)
    selectedTarget = target
    return 0
}

/// Called by libFuzzer for each input: runs the target on it, and stops the process when it took
/// more CPU time than the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = selectedTarget else { return 0 }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    // libFuzzer's own `-timeout` counts whole seconds; the bar is 100 ms of this thread's CPU time,
    // which other work on a shared machine does not inflate the way it inflates wall-clock time.
    let started = threadCPUTime()
    target.run(input)
    let elapsed = threadCPUTime() - started
    if slowLimitNanoseconds > 0, elapsed > slowLimitNanoseconds {
        fatalError(
            "slow input: \(elapsed / 1_000_000) ms of CPU time for \(count) bytes, over the limit of "
                + "\(slowLimitNanoseconds / 1_000_000) ms (ECNETWORKING_FUZZ_SLOW_MS)")
    }
    return 0
}

private func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Stops the process with `message` unless `condition` holds: libFuzzer then keeps the input.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// Text from fuzzed bytes as the library would get it from the wire: invalid UTF-8 becomes U+FFFD.
func text(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Whether `haystack` contains `needle`, byte for byte (`String.contains` compares characters,
/// which a combining mark after the needle would hide it from).
func containsBytes(_ haystack: some StringProtocol, _ needle: String) -> Bool {
    let bytes = Array(haystack.utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, bytes.count >= pattern.count else { return pattern.isEmpty }
    return (0...(bytes.count - pattern.count)).contains { start in
        bytes[start..<(start + pattern.count)].elementsEqual(pattern)
    }
}

/// The input cut into fields at every `separator` byte, empty fields kept.
func fields(_ input: [UInt8], separator: UInt8) -> [ArraySlice<UInt8>] {
    input.split(separator: separator, omittingEmptySubsequences: false)
}

/// Cuts bytes into chunks, as a transport may deliver them: sizes drawn from a small generator
/// seeded by the input's control byte, empty chunks included.
func chunks(of bytes: ArraySlice<UInt8>, seed: UInt8) -> [Data] {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var result: [Data] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        // 0 to 8 bytes most of the time, now and then a longer run.
        let size = state % 16 == 0 ? Int(state >> 8) % 64 : Int(state >> 8) % 9
        let end = min(bytes.endIndex, start + size)
        result.append(Data(bytes[start..<end]))
        start = end
    }
    return result
}
