import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the library's file upload over `URLSessionTransport` is measured against: a plain
/// `URLSession` upload task from the file, as an app would write it, with the headers the
/// library's actions add, bridged to async with an unsafe continuation (the handler is called once).
struct RawURLSessionUpload: Sendable {
    /// One session for the process: FoundationNetworking crashes in libcurl teardown when sessions
    /// come and go.
    private static let session = URLSession(configuration: LoopbackScenario.sessionConfiguration())

    /// The server's address.
    let baseURL: URL
    /// The headers sent with the request.
    let headers: [(name: String, value: String)]

    /// Uploads the file at `source` by `PUT` and returns the byte count the server says it received.
    func upload(_ source: URL) async throws -> Int {
        var request = URLRequest(url: UploadSink.url(baseURL: baseURL))
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        for header in headers {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        let data: Data = try await withUnsafeThrowingContinuation { continuation in
            let task = Self.session.uploadTask(with: request, fromFile: source) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                    continuation.resume(throwing: BenchmarkError.unexpectedStatus(status))
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }
            task.resume()
        }
        return UploadSink.receivedCount(in: data) ?? -1
    }
}
