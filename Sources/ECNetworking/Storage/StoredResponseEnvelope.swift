import Foundation

/// The bytes of one ``DiskResponseStore`` file: a small binary format that says which version
/// wrote it and lets a damaged or truncated file be recognised, so it is dropped instead of read.
///
/// ```
/// magic        4 bytes   "ECRS"
/// version      1 byte    1
/// length       8 bytes   the payload's length, big-endian
/// checksum     8 bytes   FNV-1a 64 of the payload, big-endian
/// payload:
///   key        text      the whole storage key (the file name is only its hash)
///   storedAt   8 bytes   seconds since 1970 as an IEEE 754 double
///   status     8 bytes   signed
///   headers    4 bytes   count, then a name and a value (text) for each
///   body       bytes
/// text and bytes: a 4-byte length, then the bytes (text in UTF-8)
/// ```
///
/// Binary rather than JSON because a body is arbitrary bytes (JSON would need Base64, a third
/// larger and slower) and because reading it needs no parser that could misjudge a cut-off file.
enum StoredResponseEnvelope {
    private static let magic: [UInt8] = Array("ECRS".utf8)
    /// The format written now. A file of another version is treated as damaged: it is a cache, so
    /// dropping it is cheaper than keeping readers for old formats.
    static let version: UInt8 = 1
    private static let preambleLength = 4 + 1 + 8 + 8

    /// The file contents for `response` stored under `key`.
    static func encode(_ response: StoredResponse, key: String) -> Data {
        var payload = Data()
        payload.reserveCapacity(response.byteCount + key.utf8.count + 64 + response.headers.count * 8)
        payload.appendText(key)
        payload.appendInteger(response.storedAt.timeIntervalSince1970.bitPattern)
        payload.appendInteger(UInt64(bitPattern: Int64(response.statusCode)))
        payload.appendInteger(UInt32(response.headers.count))
        for field in response.headers {
            payload.appendText(field.name)
            payload.appendText(field.value)
        }
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

    /// The key and response in `file`, or `nil` when it is not a whole, undamaged file of this
    /// version: wrong magic or version, a length that does not match, a checksum that does not
    /// match, or fields that run past the end.
    static func decode(_ file: Data) -> (key: String, response: StoredResponse)? {
        var reader = ByteReader(file)
        guard let fileMagic = reader.readBytes(count: magic.count), fileMagic.elementsEqual(magic),
            reader.readByte() == version,
            let length = reader.readInteger(UInt64.self),
            let checksum = reader.readInteger(UInt64.self),
            UInt64(reader.remaining) == length
        else { return nil }
        guard let payload = reader.readBytes(count: Int(length)), FowlerNollVoHash.hash(payload) == checksum else {
            return nil
        }

        var fields = ByteReader(payload)
        guard let key = fields.readText(),
            let storedAtBits = fields.readInteger(UInt64.self),
            let statusBits = fields.readInteger(UInt64.self),
            let headerCount = fields.readInteger(UInt32.self)
        else { return nil }
        var headers: [HTTPHeaders.Field] = []
        headers.reserveCapacity(Int(min(headerCount, 256)))
        for _ in 0..<headerCount {
            guard let name = fields.readText(), let value = fields.readText() else { return nil }
            headers.append(HTTPHeaders.Field(name: name, value: value))
        }
        guard let body = fields.readLengthPrefixedBytes(), fields.remaining == 0 else { return nil }
        let response = StoredResponse(
            statusCode: Int(Int64(bitPattern: statusBits)),
            headers: HTTPHeaders(headers),
            // A copy, so the body's indices start at zero like any other `Data`.
            body: Data(body),
            storedAt: Date(timeIntervalSince1970: Double(bitPattern: storedAtBits))
        )
        return (key, response)
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
}
