#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ordered list of HTTP header fields whose names are compared without regard to case.
///
/// A name may appear more than once (`Set-Cookie`, `Accept`); ``subscript(_:)`` reads all of its
/// values joined by `", "` and replaces them all when written, while ``add(name:value:)`` keeps the
/// ones already there. The order of fields is kept, so what is sent and logged is predictable.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["authorization"] = "Bearer abc"
/// headers["Authorization"]   // "Bearer abc"
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// One header field: a name and a value.
    public struct Field: Sendable, Hashable {
        /// The name as it was given; lookups ignore its case.
        public var name: String
        /// The value, as given.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public var fields: [Field] {
        #if canImport(FoundationNetworking)
            if let unreadResponse { return Self.fields(of: unreadResponse) }
        #endif
        return storedFields
    }

    private var storedFields: [Field]

    #if canImport(FoundationNetworking)
        /// The response these are the fields of, until they are changed; `nil` once they are, and
        /// for any other list.
        ///
        /// FoundationNetworking hands a response's fields out only as `[AnyHashable: Any]`, a new
        /// dictionary every time, whose keys and values are then cast one by one: several thousand
        /// instructions and two allocations per response, for fields most sends never read. So
        /// they are read from the response when needed, and a single field by name (what the
        /// library reads: `Content-Type`, `Location`, `ETag`…) is asked of the response itself.
        private var unreadResponse: HTTPURLResponse?
    #endif

    /// Creates an empty list.
    public init() {
        storedFields = []
    }

    /// Creates a list from fields, keeping their order and any repeated names.
    public init(_ fields: [Field]) {
        self.storedFields = fields
    }

    /// Creates a list from a dictionary. Names are sorted so that the order does not depend on
    /// the dictionary's hashing.
    public init(_ dictionary: [String: String]) {
        storedFields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates a list from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        storedFields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    #if canImport(FoundationNetworking)
        /// The fields of a response a `URLSession` delivered, read from it only when needed.
        init(readingLazily response: HTTPURLResponse) {
            storedFields = []
            unreadResponse = response
        }

        /// The value of the field called `name`, asked of the response the fields are still in;
        /// `nil` when the answer must come from the fields themselves.
        ///
        /// FoundationNetworking's `HTTPURLResponse` keeps one field per name: it capitalizes every
        /// name (`content-type` and `CONTENT-TYPE` both become `Content-Type`) except those that
        /// begin with `x-`, which it keeps as they came. So for an ASCII name that does not begin
        /// with `x-`, at most one field matches, as its `value(forHTTPHeaderField:)` finds it; a
        /// name that begins with `x-` may match several, whose values this type joins.
        private func valueFromUnreadResponse(named name: String) -> String?? {
            guard let unreadResponse else { return nil }
            // Over the contiguous bytes: iterating `utf8` cost some thirty instructions a byte.
            var name = name
            let isSingleField = name.withUTF8 { bytes in
                let beginsWithX =
                    bytes.count >= 2 && bytes[0] | 0x20 == UInt8(ascii: "x") && bytes[1] == UInt8(ascii: "-")
                return !beginsWithX && !bytes.contains { $0 >= 0x80 }
            }
            guard isSingleField else { return nil }
            return .some(unreadResponse.value(forHTTPHeaderField: name))
        }
    #endif

    /// The media type of the `Content-Type` field, for a check that reads its type and subtype
    /// alone. With FoundationNetworking, while the fields are still in the response, it is the
    /// type the response parsed from the field when it was made (lowercased, without parameters),
    /// which costs nothing, where reading the field lowercases every name the response has;
    /// otherwise it is the field's whole value.
    var contentMediaType: String? {
        #if canImport(FoundationNetworking)
            if let unreadResponse { return unreadResponse.mimeType }
        #endif
        return self["Content-Type"]
    }

    /// Reads the fields out of the response they are still in, before they change.
    private mutating func readUnreadFields() {
        #if canImport(FoundationNetworking)
            if let response = unreadResponse.take() { storedFields = Self.fields(of: response) }
        #endif
    }

    /// Whether both lists hold the same fields in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// The number of fields, counting each repeated name.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The values of every field with this name, joined by `", "`, or `nil` when there is none.
    /// Setting it replaces every field with this name; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            #if canImport(FoundationNetworking)
                if let value = valueFromUnreadResponse(named: name) { return value }
            #endif
            var result: String?
            for field in fields where field.name.equalsIgnoringASCIICase(name) {
                result = result.map { "\($0), \(field.value)" } ?? field.value
            }
            return result
        }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            readUnreadFields()
            if let first = storedFields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) {
                storedFields[first].value = newValue
                var index = storedFields.index(after: first)
                while index < storedFields.endIndex {
                    if storedFields[index].name.equalsIgnoringASCIICase(name) {
                        storedFields.remove(at: index)
                    } else {
                        index = storedFields.index(after: index)
                    }
                }
            } else {
                storedFields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// The value of each field with this name, in order.
    public func values(for name: String) -> [String] {
        fields.lazy.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field with this name exists.
    public func contains(name: String) -> Bool {
        #if canImport(FoundationNetworking)
            if let value = valueFromUnreadResponse(named: name) { return value != nil }
        #endif
        return fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Adds a field, keeping any others with the same name.
    public mutating func add(name: String, value: String) {
        readUnreadFields()
        storedFields.append(Field(name: name, value: value))
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        readUnreadFields()
        storedFields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Adds each field of `other` whose name is not already here (every value of it, when the
    /// name repeats); fields already here win.
    public mutating func addMissing(from other: HTTPHeaders, except excludedName: String? = nil) {
        guard !other.isEmpty else { return }
        readUnreadFields()
        let present = self
        for field in other.fields where !present.contains(name: field.name) {
            if let excludedName, field.name.equalsIgnoringASCIICase(excludedName) { continue }
            storedFields.append(field)
        }
    }

    /// The fields as a dictionary, repeated names joined by `", "` (the shape `URLRequest` uses).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            if let existing = result.first(where: { $0.key.equalsIgnoringASCIICase(field.name) }) {
                result[existing.key] = "\(existing.value), \(field.value)"
            } else {
                result[field.name] = field.value
            }
        }
        return result
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension StringProtocol {
    /// Compares two strings byte by byte, folding only ASCII letters, which is how HTTP field
    /// names and media types compare; unlike `lowercased()` it allocates nothing on this
    /// per-request path.
    func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        // Lengths first, in constant time for native strings: most names compared differ in length.
        guard utf8.count == other.utf8.count else { return false }
        // Then the bytes in place, which native strings hand out directly: walking the views'
        // iterators costs several times as much per byte.
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in left.equalsIgnoringASCIICase(right) }
        }
        return (compared ?? nil) ?? utf8.equalsIgnoringASCIICase(other.utf8)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Compares two buffers of the same length, folding only ASCII letters.
    func equalsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in indices {
            let a = self[index]
            let b = other[index]
            if a != b && a.asciiLowercased != b.asciiLowercased { return false }
        }
        return true
    }
}

extension Sequence<UInt8> {
    /// Compares two byte sequences, folding only ASCII letters.
    func equalsIgnoringASCIICase(_ other: some Sequence<UInt8>) -> Bool {
        var left = makeIterator()
        var right = other.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case (let a?, let b?):
                if a != b && a.asciiLowercased != b.asciiLowercased { return false }
            default:
                return false
            }
        }
    }
}

extension UInt8 {
    var asciiLowercased: UInt8 {
        (65...90).contains(self) ? self + 32 : self
    }
}
