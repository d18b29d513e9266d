import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request ready for the transport: the ``TransportRequest``, and the same request as a
/// ``NetworkRequest`` with everything the wire will carry (final URL, `Content-Type`, encoded body),
/// which is what the began, response and completed actions see.
struct WireRequest: Sendable {

    var request: NetworkRequest
    var transportRequest: TransportRequest
    /// The deadline of one attempt, enforced by the pipeline itself.
    var timeout: Duration? { transportRequest.timeout }
    /// A multipart form not yet encoded: the send encodes it once it has its concurrency slot, off
    /// the concurrency runtime's threads, and hands it over with ``attach(_:)``; the transport
    /// request has no body until then.
    let pendingMultipart: MultipartFormData?

    /// Validates and encodes `request`.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a URL that is not absolute HTTP(S),
    ///   a method that is not an HTTP token, or a header with a line break or invalid name (the
    ///   reason names the URL redacted with the configuration's ``SensitiveData``, never a header value);
    ///   ``NetworkError/encodingFailed(_:)`` for a body that cannot be encoded;
    ///   ``NetworkError/invalidRequest(reason:)`` for a body file that cannot be read. A multipart
    ///   form is checked when it is encoded (see ``pendingMultipart``).
    ///
    /// Both are borrowed: an initializer's parameters are otherwise owned, and the caller copied
    /// the request and the whole configuration to pass them.
    init(_ request: borrowing NetworkRequest, configuration: borrowing NetworkConfiguration) throws {
        let url = try request.urlWithQuery()
        guard Self.isAbsoluteHTTP(url) else {
            let shown = Redaction(configuration.sensitiveData).url(url)
            throw NetworkError.invalidRequest(
                reason: "\"\(shown)\" is not an absolute http or https URL with a port from 1 to 65535")
        }
        guard HeaderValidation.isToken(request.method.rawValue) else {
            throw NetworkError.invalidRequest(reason: "\"\(request.method.rawValue)\" is not a valid HTTP method")
        }
        var wire = copy request
        // Changed only when the query moved into the URL: a change copies the request's shared storage.
        if !request.queryItems.isEmpty {
            wire.url = url
            wire.queryItems = []
        }
        var body: TransportRequestBody?
        if let requestBody = request.body {
            body = try requestBody.transportBody(defaultEncoder: configuration.encoder)
            if let contentType = requestBody.impliedContentType, !wire.headers.contains(name: "Content-Type") {
                wire.headers.add(name: "Content-Type", value: contentType)
            }
            if case .multipart(let form) = requestBody.content {
                pendingMultipart = form
            } else {
                pendingMultipart = nil
            }
            // Actions see the bytes that go on the wire; a file, a stream or a multipart form
            // stays as it was, since its bytes are read only as it is sent.
            if case .bytes(let data)? = body?.source, requestBody.isBuffered {
                wire.body = .data(data, contentType: nil)
            }
        } else {
            pendingMultipart = nil
        }
        try HeaderValidation.validate(wire.headers)

        self.transportRequest = TransportRequest(
            method: wire.method, url: url, headers: wire.headers, body: body,
            timeout: wire.timeout ?? configuration.timeout,
            maximumResponseSize: configuration.maximumResponseSize, cachePolicy: wire.cachePolicy)
        // Last, so that the request moves in rather than being copied while still read.
        self.request = wire
    }

    /// Gives the transport request the encoded form of ``pendingMultipart``.
    mutating func attach(_ encoded: EncodedMultipartBody) {
        transportRequest.body = encoded.body
    }

    /// Whether `url` has the scheme `http` or `https` (in any case), a host that is not empty, as
    /// `URL.scheme` and `URL.host` tell, and no port outside 1–65535, read from its text: `URL.host`
    /// builds the host as a new string, percent-decoded, for every attempt. `URL` takes any digits
    /// as a port (`:99999`, or one too long for `URL.port`, which is then `nil`), which one
    /// transport refuses, another stops the process on, and a third sends to port 80.
    static func isAbsoluteHTTP(_ url: URL) -> Bool {
        var text = url.absoluteString
        return text.withUTF8 { bytes in
            // One pass over plain bytes: the generic slice helpers this used before cost ten times
            // as much on every attempt.
            let count = bytes.count
            // `http` or `https` in any case, then `://`.
            guard count >= 7,
                bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
            else { return false }
            var index = 4
            if bytes[index] | 0x20 == UInt8(ascii: "s") { index += 1 }
            guard index + 3 <= count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return false }
            // The authority runs to the path, query or fragment; its host follows any userinfo and
            // precedes any port, which follows the closing bracket of an IPv6 literal.
            let authorityStart = index + 3
            var hostStart = authorityStart
            var lastColon: Int?
            var lastBracket: Int?
            var position = authorityStart
            while position < count {
                switch bytes[position] {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    return Self.isUsableAuthority(
                        bytes, hostStart: hostStart, colon: lastColon, bracket: lastBracket, end: position)
                case UInt8(ascii: "@"):
                    hostStart = position + 1
                    lastColon = nil
                    lastBracket = nil
                case UInt8(ascii: ":"):
                    lastColon = position
                case UInt8(ascii: "]"):
                    lastBracket = position
                default:
                    break
                }
                position += 1
            }
            return Self.isUsableAuthority(
                bytes, hostStart: hostStart, colon: lastColon, bracket: lastBracket, end: count)
        }
    }

    /// Whether the host of an authority whose host starts at `hostStart` and which ends at `end` has
    /// a character, and its port, if it has one, is a number from 1 to 65535 (an empty one means
    /// the scheme's). The host ends at the last colon (the port's) unless that colon is inside an
    /// IPv6 literal, before its closing bracket.
    private static func isUsableAuthority(
        _ bytes: UnsafeBufferPointer<UInt8>, hostStart: Int, colon: Int?, bracket: Int?, end: Int
    ) -> Bool {
        guard let colon, colon > (bracket ?? hostStart - 1) else { return hostStart < end }
        guard hostStart < colon else { return false }
        var port = 0
        for byte in bytes[(colon + 1)..<end] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            port = port * 10 + Int(byte - UInt8(ascii: "0"))
            // Stopped at once, so that no number of digits overflows.
            guard port <= 65_535 else { return false }
        }
        return port > 0 || colon + 1 == end
    }
}
