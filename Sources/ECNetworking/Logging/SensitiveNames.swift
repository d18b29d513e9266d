/// One list of sensitive names, normalized once, and the matching rule described on
/// ``SensitiveData``.
struct SensitiveNames: Sendable {
    /// Listed names of at most this many letters and digits match only whole names.
    private static let longestWholeNameOnly = 4

    private let wholeNames: [[UInt8]]
    private let containedNames: [[UInt8]]

    init(_ names: Set<String>) {
        let normalized = names.map { Self.normalized($0.utf8) }.filter { !$0.isEmpty }
        wholeNames = normalized.filter { $0.count <= Self.longestWholeNameOnly }
        containedNames = normalized.filter { $0.count > Self.longestWholeNameOnly }
    }

    /// Whether the list is empty, so callers can skip work.
    var isEmpty: Bool { wholeNames.isEmpty && containedNames.isEmpty }

    func matches(_ name: some StringProtocol) -> Bool {
        matches(bytes: name.utf8)
    }

    /// Whether the name whose UTF-8 bytes these are matches a listed name.
    func matches(bytes name: some Collection<UInt8>) -> Bool {
        let candidate = Self.normalized(name)
        guard !candidate.isEmpty else { return false }
        return wholeNames.contains(candidate) || containedNames.contains { Self.contains(candidate, $0) }
    }

    /// The name's ASCII letters (lowercased) and digits, and any non-ASCII bytes as they are.
    private static func normalized(_ name: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.count)
        for byte in name {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...:
                bytes.append(byte)
            default: continue
            }
        }
        return bytes
    }

    /// A plain byte search: Foundation's `String.contains` goes through `NSString` on Linux.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
