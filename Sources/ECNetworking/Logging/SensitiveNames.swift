/// One list of sensitive names, normalized once, and the matching rule described on
/// ``SensitiveData``.
struct SensitiveNames: Sendable {
    /// Listed names of at most this many letters and digits match only whole names.
    private static let longestWholeNameOnly = 4

    private let wholeNames: [[UInt8]]
    private let containedNames: [[UInt8]]
    /// Which bytes start a contained name, so that most positions of a name are passed over at once.
    private let startsContainedName: [Bool]

    /// The default lists of ``SensitiveData``, normalized once.
    static let defaultHeaders = SensitiveNames(SensitiveData.defaultHeaders)
    static let defaultQueryParameters = SensitiveNames(SensitiveData.defaultQueryParameters)
    static let defaultBodyFields = SensitiveNames(SensitiveData.defaultBodyFields)

    init(_ names: Set<String>) {
        let normalized = Set(names.map { Self.normalized($0.utf8) }.filter { !$0.isEmpty })
        wholeNames = Array(normalized.filter { $0.count <= Self.longestWholeNameOnly })
        let contained = Array(normalized.filter { $0.count > Self.longestWholeNameOnly })
        // A name that contains another listed one adds nothing (`setcookie` after `cookie`).
        let kept = contained.filter { name in
            !contained.contains { $0 != name && Self.occurs($0, in: name) }
        }
        containedNames = kept
        var starts = [Bool](repeating: false, count: 256)
        for name in kept { starts[Int(name[0])] = true }
        startsContainedName = starts
    }

    /// Whether the list is empty, so callers can skip work.
    var isEmpty: Bool { wholeNames.isEmpty && containedNames.isEmpty }

    func matches(_ name: some StringProtocol) -> Bool {
        // Native strings hand out their bytes directly, which walks far faster than the view.
        name.utf8.withContiguousStorageIfAvailable { matches(bytes: $0) } ?? matches(bytes: Array(name.utf8))
    }

    /// Whether the name whose UTF-8 bytes these are matches a listed name. It compares as it
    /// walks the bytes, without building a normalized copy: logging calls it for every header.
    func matches<Name: Collection<UInt8>>(bytes name: Name) -> Bool {
        if wholeNames.contains(where: { Self.startsWith($0, in: name, at: name.startIndex, whole: true) }) {
            return true
        }
        var start = name.startIndex
        while start < name.endIndex {
            if let byte = Self.normalizedByte(name[start]), startsContainedName[Int(byte)],
                containedNames.contains(where: { Self.startsWith($0, in: name, at: start, whole: false) })
            {
                return true
            }
            name.formIndex(after: &start)
        }
        return false
    }

    /// Whether `listed` occurs in the normalized bytes of `name`; for building the list only.
    private static func occurs(_ listed: [UInt8], in name: [UInt8]) -> Bool {
        name.indices.contains { startsWith(listed, in: name, at: $0, whole: false) }
    }

    /// Whether the normalized bytes of `name` from `start` on begin with `listed` (and, when
    /// `whole`, end with it too).
    private static func startsWith<Name: Collection<UInt8>>(
        _ listed: [UInt8], in name: Name, at start: Name.Index, whole: Bool
    ) -> Bool {
        var index = start
        var matched = 0
        while matched < listed.count {
            guard index < name.endIndex else { return false }
            let byte = normalizedByte(name[index])
            name.formIndex(after: &index)
            guard let byte else { continue }
            guard byte == listed[matched] else { return false }
            matched += 1
        }
        guard whole else { return true }
        return name[index...].allSatisfy { normalizedByte($0) == nil }
    }

    /// The name's ASCII letters (lowercased) and digits, and any non-ASCII bytes as they are.
    private static func normalized(_ name: some Collection<UInt8>) -> [UInt8] {
        name.compactMap(normalizedByte)
    }

    /// A letter lowercased, a digit or non-ASCII byte as it is, or `nil` for ASCII punctuation,
    /// spaces and control characters, which names are compared without.
    private static func normalizedByte(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...: byte
        default: nil
        }
    }
}
