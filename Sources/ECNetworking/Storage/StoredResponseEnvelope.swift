import Foundation

/// The bytes of one ``DiskResponseStore`` file: a small binary format that says which version
/// wrote it and lets a damaged, truncated or forged file be recognised, so it is dropped instead
/// of read.
///
/// ```
/// magic        4 bytes   "ECRS"
/// version      1 byte    2
/// length       8 bytes   the payload's length, big-endian
/// checksum     8 bytes   FNV-1a 64 of the payload, big-endian
/// payload:
///   key        32 bytes  SHA-256 of the storage key (the key itself is never written)
///   storedAt   8 bytes   seconds since 1970 as an IEEE 754 double
///   status     8 bytes   signed
///   headers    4 bytes   count, then a name and a value (text) for each
///   varied     4 bytes   count, then a name and a value (text) for each varied request header
///   body       bytes
/// text and bytes: a 4-byte length, then the bytes (text in UTF-8)
/// ```
///
/// Binary rather than JSON because a body is arbitrary bytes (JSON would need Base64, a third
/// larger and slower) and because reading it needs no parser that could misjudge a cut-off file.
/// Only a digest of the key is kept because a key may hold a partition's digest next to a URL and
/// its query; the digest is enough to tell that a file belongs to a key.
enum StoredResponseEnvelope {
    private static let magic: [UInt8] = Array("ECRS".utf8)
    /// The format written now. A file of another version is treated as damaged: it is a cache, so
    /// dropping it is cheaper than keeping readers for old formats.
    static let version: UInt8 = 2
    private static let preambleLength = 4 + 1 + 8 + 8
    private static let keyDigestLength = 32
    /// How far in the future a stored date may be (a clock set back since) before the file counts
    /// as forged: an entry from the future would stay fresh for ever.
    private static let clockSkewAllowance: TimeInterval = 24 * 60 * 60
    /// The status codes HTTP defines; anything else in a file is damage or forgery.
    private static let plausibleStatusCodes: ClosedRange<Int64> = 100...599

    /// The digest a file holds for `key`.
    static func keyDigest(_ key: String) -> [UInt8] {
        SHA256.hash(key)
    }

    /// The file contents for `response` stored under `key`.
    static func encode(_ response: StoredResponse, key: String) -> Data {
        encode(response, keyDigest: keyDigest(key))
    }

    /// The file contents for `response` stored under the key whose ``keyDigest(_:)`` is `digest`.
    static func encode(_ response: StoredResponse, keyDigest digest: [UInt8]) -> Data {
        var payload = Data()
        payload.reserveCapacity(response.byteCount + keyDigestLength + 64 + response.headers.count * 8)
        payload.append(contentsOf: digest)
        payload.appendInteger(response.storedAt.timeIntervalSince1970.bitPattern)
        payload.appendInteger(UInt64(bitPattern: Int64(response.statusCode)))
        payload.appendFields(response.headers)
        payload.appendFields(response.variedRequestHeaders)
        payload.appendBytes(response.body)

        var file = Data()
        file.reserveCapacity(preambleLength + payload.count)
        file.append(contentsOf: magic)
        file.append(version)
        file.appendInteger(UInt64(payload.count))
        file.appendInteger(FowlerNollVoHash.hash(payload))
        file.append(payload)
        return file
    }

    /// The key digest and response in `file`, or `nil` when it is not a whole, undamaged,
    /// plausible file of this version: wrong magic or version, a length or checksum that does not
    /// match, fields that run past the end, a stored date that is not a number, before 1970 or
    /// more than a day after `now`, a status code outside 100...599, or a header that could not
    /// have come over the wire.
    static func decode(_ file: Data, now: Date = Date()) -> (keyDigest: [UInt8], response: StoredResponse)? {
        var reader = ByteReader(file)
        guard let fileMagic = reader.readBytes(count: magic.count), fileMagic.elementsEqual(magic),
            reader.readByte() == version,
            let length = reader.readInteger(UInt64.self),
            let checksum = reader.readInteger(UInt64.self),
            UInt64(reader.remaining) == length
        else { return nil }
        guard let payload = reader.readBytes(count: reader.remaining), FowlerNollVoHash.hash(payload) == checksum else {
            return nil
        }

        var fields = ByteReader(payload)
        guard let digest = fields.readBytes(count: keyDigestLength),
            let storedAtBits = fields.readInteger(UInt64.self),
            let statusBits = fields.readInteger(UInt64.self),
            let headers = fields.readFields(),
            let varied = fields.readFields(),
            let body = fields.readLengthPrefixedBytes(), fields.remaining == 0
        else { return nil }
        let storedAt = Double(bitPattern: storedAtBits)
        let status = Int64(bitPattern: statusBits)
        guard storedAt.isFinite, storedAt >= 0,
            storedAt <= now.timeIntervalSince1970 + clockSkewAllowance,
            plausibleStatusCodes.contains(status),
            (try? HeaderValidation.validate(headers)) != nil,
            (try? HeaderValidation.validate(varied)) != nil
        else { return nil }
        let response = StoredResponse(
            statusCode: Int(status),
            headers: headers,
            // A copy, so the body's indices start at zero like any other `Data`.
            body: Data(body),
            storedAt: Date(timeIntervalSince1970: storedAt),
            variedRequestHeaders: varied
        )
        return (Array(digest), response)
    }
}

extension Data {
    fileprivate mutating func appendInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func appendBytes(_ bytes: Data) {
        appendInteger(UInt32(bytes.count))
        append(bytes)
    }

    fileprivate mutating func appendText(_ text: String) {
        appendInteger(UInt32(text.utf8.count))
        append(contentsOf: text.utf8)
    }

    fileprivate mutating func appendFields(_ headers: HTTPHeaders) {
        appendInteger(UInt32(headers.count))
        for field in headers {
            appendText(field.name)
            appendText(field.value)
        }
    }
}

/// Reads the envelope's fields from the front of some bytes; every read returns `nil` instead of
/// reading past the end, which is what makes a truncated file harmless.
private struct ByteReader {
    private let data: Data
    private var position: Data.Index

    init(_ data: Data) {
        self.data = data
        self.position = data.startIndex
    }

    var remaining: Int { data.endIndex - position }

    mutating func readByte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return data[position]
    }

    mutating func readBytes(count: Int) -> Data? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return data[position..<position + count]
    }

    mutating func readInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
        let size = MemoryLayout<Integer>.size
        guard remaining >= size else { return nil }
        var value: Integer = 0
        for index in position..<position + size {
            value = value << 8 | Integer(data[index])
        }
        position += size
        return value
    }

    mutating func readLengthPrefixedBytes() -> Data? {
        guard let length = readInteger(UInt32.self) else { return nil }
        return readBytes(count: Int(length))
    }

    mutating func readText() -> String? {
        guard let bytes = readLengthPrefixedBytes() else { return nil }
        return String(data: bytes, encoding: .utf8)
    }

    /// A count, then that many name and value pairs. The count is not trusted for the capacity:
    /// each field takes at least eight bytes, which bounds how many the remaining bytes can hold.
    mutating func readFields() -> HTTPHeaders? {
        guard let count = readInteger(UInt32.self), Int(count) <= remaining / 8 else { return nil }
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let name = readText(), let value = readText() else { return nil }
            fields.append(HTTPHeaders.Field(name: name, value: value))
        }
        return HTTPHeaders(fields)
    }
}
