// A stored response read back from disk, where another process, a full disk or an attacker with
// access to the cache folder may have left anything.
//
// Input: one mode byte, then bytes. Mode 0: the bytes are a whole file. Mode 1: they are a
// payload, given the right preamble (magic, version, length, checksum) so that mutations reach the
// fields behind the checksum. Mode 2: they are the JSON of a `StoredResponse` (its `Codable` form).
// Checks: decoding never crashes; a decoded entry is plausible (status 100...599, a date that is a
// number from 1970 to a day from now, headers that could have come over the wire) and writing it
// out reads back to the same entry; its age and size can be taken; a JSON entry encodes and decodes
// to itself.

import Foundation

@testable import ECNetworking

enum StoredEntryTarget: FuzzTarget {
    static let name = "stored-entry"
    static let warmUp: [UInt8] =
        [0]
        + Array(
            StoredResponseEnvelope.encode(
                StoredResponse(statusCode: 200, headers: ["ETag": "\"1\""], body: Data("{}".utf8)), key: "GET /"))

    /// The decoding's clock, fixed so that a file's outcome does not change with the time.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let bytes = Data(input.dropFirst())
        switch mode % 3 {
        case 0: decodeFile(bytes)
        case 1: decodeFile(withPreamble(bytes))
        default: decodeJSON(bytes)
        }
    }

    static func decodeFile(_ file: Data) {
        guard let (digest, response) = StoredResponseEnvelope.decode(file, now: now) else { return }
        check(digest.count == 32, "the key digest is \(digest.count) bytes")
        checkPlausible(response)
        let written = StoredResponseEnvelope.encode(response, keyDigest: digest)
        guard let (rereadDigest, reread) = StoredResponseEnvelope.decode(written, now: now) else {
            fatalError("an entry written out from a decoded one does not decode")
        }
        check(rereadDigest == digest && reread == response, "an entry does not read back to itself")
    }

    static func decodeJSON(_ json: Data) {
        guard let response = try? JSONDecoder().decode(StoredResponse.self, from: json) else { return }
        _ = response.age(at: now)
        _ = response.byteCount
        guard let encoded = try? JSONEncoder().encode(response) else {
            // A date or other value JSON cannot hold is refused, not crashed on.
            return
        }
        guard let reread = try? JSONDecoder().decode(StoredResponse.self, from: encoded) else {
            fatalError("a stored response's JSON does not decode: \(text(encoded))")
        }
        check(reread == response, "a stored response does not read back to itself from JSON")
    }

    static func checkPlausible(_ response: StoredResponse) {
        check((100...599).contains(response.statusCode), "status \(response.statusCode) was accepted")
        let storedAt = response.storedAt.timeIntervalSince1970
        check(
            storedAt.isFinite && storedAt >= 0 && storedAt <= now.timeIntervalSince1970 + 86_400,
            "stored date \(storedAt) was accepted")
        check((try? HeaderValidation.validate(response.headers)) != nil, "an invalid header was accepted")
        check((try? HeaderValidation.validate(response.variedRequestHeaders)) != nil, "an invalid varied header")
        check(response.age(at: now) >= .zero, "a negative age")
        check(response.byteCount >= response.body.count, "a byte count below the body's size")
        _ = response.matchesVariedHeaders(
            of: NetworkRequest(url: URL(string: "https://example.com/")!), sensitiveData: .default)
    }

    /// A file around `payload` with the preamble it needs to reach the payload's fields.
    static func withPreamble(_ payload: Data) -> Data {
        var file = Data("ECRS".utf8)
        file.append(StoredResponseEnvelope.version)
        for value in [UInt64(payload.count), FowlerNollVoHash.hash(payload)] {
            withUnsafeBytes(of: value.bigEndian) { file.append(contentsOf: $0) }
        }
        file.append(payload)
        return file
    }
}
