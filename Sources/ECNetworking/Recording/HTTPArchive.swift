import Foundation

/// A HAR 1.2 file: the HTTP Archive format browsers' developer tools export and import, as
/// ``HTTPArchiveRecorder`` writes it and `ECNetworkingTesting`'s `FakeNetwork(replaying:)` and
/// `MockSession(replaying:)` replay it.
///
/// Only what the format requires and what a replay needs is modelled; a file from elsewhere with
/// more fields decodes, the extra fields dropped. Sizes the library does not know are -1, as the
/// format asks.
public struct HTTPArchive: Codable, Sendable, Equatable {
    /// The archive's one top-level object.
    public var log: Log

    /// An empty archive made by `creator`.
    public init(creator: Creator = Creator(name: "ECNetworking", version: "1")) {
        log = Log(version: "1.2", creator: creator, entries: [])
    }

    /// Reads an archive from a HAR file.
    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
    }

    /// The archive as HAR JSON, with its keys sorted so that two recordings compare line by line.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The `log` object: the format's version, its creator, and one entry per exchange.
    public struct Log: Codable, Sendable, Equatable {
        /// The format's version, "1.2".
        public var version: String
        /// What wrote the archive.
        public var creator: Creator
        /// The exchanges, in the order their requests went on the wire.
        public var entries: [Entry]
    }

    /// The application that wrote an archive.
    public struct Creator: Codable, Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its version.
        public var version: String

        /// A creator named `name` at `version`.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// One request and its response.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request went on the wire, in ISO 8601 with milliseconds.
        public var startedDateTime: String
        /// Milliseconds from the request on the wire to the response's end.
        public var time: Double
        /// The request as sent, redacted.
        public var request: Request
        /// The response as received, redacted.
        public var response: Response
        /// Always empty: the library keeps no browser cache.
        public var cache: Cache
        /// How `time` divides up.
        public var timings: Timings
        /// Why the response's body ended before its end (a broken connection, the idle timeout,
        /// the size limit, the reader letting it go), as the send's error describes it, redacted;
        /// absent for a body that arrived whole. Written as `_error`, a field of the library's own
        /// (HAR 1.2 lets a writer add fields whose names begin with an underscore).
        public var error: String?

        private enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings
            case error = "_error"
        }
    }

    /// A request of an ``Entry``.
    public struct Request: Codable, Sendable, Equatable {
        /// The method, as sent.
        public var method: String
        /// The absolute URL, redacted: no userinfo, sensitive query values replaced.
        public var url: String
        /// "HTTP/1.1" (the library does not learn which version the transport negotiated).
        public var httpVersion: String
        /// Always empty: cookies travel in the `Cookie` header, which is redacted.
        public var cookies: [NameValue]
        /// The headers as sent, sensitive values redacted.
        public var headers: [NameValue]
        /// The URL's query, as name and value pairs, redacted as the URL is.
        public var queryString: [NameValue]
        /// The body, for a request that had one.
        public var postData: PostData?
        /// -1: not known.
        public var headersSize: Int
        /// The body's size in bytes, 0 without one, -1 when it was not known (a stream).
        public var bodySize: Int
    }

    /// A response of an ``Entry``.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The status's reason phrase, as `HTTPURLResponse` names it.
        public var statusText: String
        /// "HTTP/1.1" (see ``Request/httpVersion``).
        public var httpVersion: String
        /// Always empty: cookies travel in the `Set-Cookie` header, which is redacted.
        public var cookies: [NameValue]
        /// The headers as received, sensitive values redacted.
        public var headers: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location` header of a redirect, or "".
        public var redirectURL: String
        /// -1: not known.
        public var headersSize: Int
        /// The body's size in bytes as received; for a streamed body, all the bytes that arrived
        /// before it ended, kept or not. -1 in an archive of an earlier version, which did not read
        /// streamed bodies.
        public var bodySize: Int
    }

    /// A header, cookie or query parameter.
    public struct NameValue: Codable, Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its value.
        public var value: String

        /// A pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A request's body.
    public struct PostData: Codable, Sendable, Equatable {
        /// Its media type, or "".
        public var mimeType: String
        /// The body as text, redacted; "" for a body the archive does not keep (binary, a file, a
        /// stream, a multipart form, whose parts may hold secrets no rule names).
        public var text: String
    }

    /// A response's body.
    public struct Content: Codable, Sendable, Equatable {
        /// Its size in bytes as received (see ``Response/bodySize``), which is more than ``text``
        /// holds when ``comment`` says the recorder kept only the start of it.
        public var size: Int
        /// Its media type, or "".
        public var mimeType: String
        /// The body, redacted, as text, or in base64 when ``encoding`` says so; for a streamed
        /// body (a stream, a download, Server-Sent Events), the bytes that arrived, as far as the
        /// recorder's ``HTTPArchiveRecorder/maximumStreamedBodySize``; absent in an archive of an
        /// earlier version that did not keep streamed bodies.
        public var text: String?
        /// "base64" for a body that is not UTF-8 text.
        public var encoding: String?
        /// Set when the recorder kept only the first part of a streamed body, saying how much.
        public var comment: String?
    }

    /// An entry's cache information: always empty.
    public struct Cache: Codable, Sendable, Equatable {}

    /// How an entry's time divides up, in milliseconds; -1 for a phase the library does not see.
    public struct Timings: Codable, Sendable, Equatable {
        /// Waiting for a connection: -1.
        public var blocked: Double
        /// Resolving the name: -1.
        public var dns: Double
        /// Connecting: -1.
        public var connect: Double
        /// Sending the request: 0, since it is counted in ``wait``.
        public var send: Double
        /// From the request on the wire to the response's head.
        public var wait: Double
        /// From the head to the body's end.
        public var receive: Double
        /// The TLS handshake: -1.
        public var ssl: Double
    }
}
