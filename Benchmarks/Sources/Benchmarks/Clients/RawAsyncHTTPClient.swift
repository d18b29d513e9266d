import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// What the library over `AsyncHTTPClientTransport` is measured against: the same call written by
/// hand on one `HTTPClient` configured like the transport's own (same pool, no redirects, the
/// same bounded decompression), reading the body up to a limit and decoding it with `JSONDecoder`.
struct RawAsyncHTTPClient: Sendable {
    /// The client, shared by every request of the run, as an app would share one.
    let client: HTTPClient
    /// The base URL `users` is appended to.
    let baseURL: URL
    /// The headers sent with every request, the ones the library's actions add.
    let headers: [(name: String, value: String)]
    /// One decoder for every response, as the library keeps one in its configuration.
    let decoder = JSONDecoder()

    /// A client on SwiftNIO's shared event loops, as the transport's own is, with the pool and
    /// settings of the library's transport created with `maximumConnectionsPerHost` connections
    /// per host, and `tls` for HTTPS.
    static func makeClient(maximumConnectionsPerHost: Int, tls: TLSConfiguration? = nil) -> HTTPClient {
        HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            configuration: HTTPClient.Configuration(
                tlsConfiguration: tls,
                redirectConfiguration: .disallow,
                timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10)),
                connectionPool: HTTPClient.Configuration.ConnectionPool(
                    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost),
                decompression: .enabled(limit: .ratio(250))))
    }

    /// Sends `GET users` and decodes the list.
    func listUsers() async throws -> [User] {
        let response = try await get(baseURL.appendingPathComponent(UsersFixture.path))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try decoder.decode([User].self, from: Data(body.readableBytesView))
    }

    /// Sends `GET users` through the client's delegate interface, as the library's transport
    /// gathers a body (`execute(request:)` with AHC's own `ResponseAccumulator`, the body gathered
    /// on the event loop and handed over once, no client deadline), and decodes the list.
    func listUsersViaDelegate() async throws -> [User] {
        var headerFields = HTTPHeaders()
        for header in headers { headerFields.add(name: header.name, value: header.value) }
        headerFields.add(name: "User-Agent", value: "ECNetworking")
        let request = try HTTPClient.Request(
            url: baseURL.appendingPathComponent(UsersFixture.path), method: .GET, headers: headerFields)
        let response = try await client.execute(request: request).get()
        guard response.status == .ok else { throw BenchmarkError.unexpectedStatus(Int(response.status.code)) }
        return try decoder.decode([User].self, from: Data((response.body ?? ByteBuffer()).readableBytesView))
    }

    /// Downloads a generated body of `byteCount` bytes into `destination`, writing each buffer as
    /// it arrives (async-http-client reads no further ahead than this loop), and returns the
    /// number of bytes written.
    func download(byteCount: Int, to destination: URL) async throws -> Int {
        let response = try await get(GeneratedBody.url(byteCount: byteCount, baseURL: baseURL))
        let file = try OutputFile(creating: destination)
        var written = 0
        do {
            for try await buffer in response.body {
                try buffer.withUnsafeReadableBytes { try file.append($0) }
                written += buffer.readableBytes
            }
        } catch {
            try? file.finish()
            throw error
        }
        try file.finish()
        return written
    }

    /// Uploads the file at `source` (`byteCount` bytes, sent with its length) by `PUT`, reading it
    /// in 64 KiB chunks as the connection takes them, and returns the byte count the server says
    /// it received.
    func upload(_ source: URL, byteCount: Int) async throws -> Int {
        var request = HTTPClientRequest(url: UploadSink.url(baseURL: baseURL).absoluteString)
        request.method = .PUT
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.headers.add(name: "User-Agent", value: "ECNetworking")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(FileBuffers(url: source), length: .known(Int64(byteCount)))
        let response = try await client.execute(request, deadline: .now() + .seconds(60))
        guard response.status == .ok else { throw BenchmarkError.unexpectedStatus(Int(response.status.code)) }
        let body = try await response.body.collect(upTo: 64)
        return UploadSink.receivedCount(in: Data(body.readableBytesView)) ?? -1
    }

    /// Sends `GET url` with the headers and returns the response once its head has arrived with
    /// status 200. The deadline covers the head only, as in the library's transport.
    /// The HTTP version the client speaks to the server, from one `GET users`.
    func negotiatedVersion() async throws -> HTTPVersion {
        let response = try await get(baseURL.appendingPathComponent(UsersFixture.path))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.version
    }

    private func get(_ url: URL) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        // The library sends one when the request has none; so does this, to send the same bytes.
        request.headers.add(name: "User-Agent", value: "ECNetworking")
        let response = try await client.execute(request, deadline: .now() + .seconds(60))
        guard response.status == .ok else { throw BenchmarkError.unexpectedStatus(Int(response.status.code)) }
        return response
    }
}

/// A file's bytes as 64 KiB `ByteBuffer`s, read as they are asked for.
private struct FileBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The file.
    let url: URL

    func makeAsyncIterator() -> Iterator {
        Iterator(url: url)
    }

    /// Opens the file at the first read and closes it at its end.
    struct Iterator: AsyncIteratorProtocol {
        let url: URL
        var handle: FileHandle?

        init(url: URL) {
            self.url = url
        }

        mutating func next() async throws -> ByteBuffer? {
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let data = try handle?.read(upToCount: 65_536), !data.isEmpty else {
                try handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }
}
