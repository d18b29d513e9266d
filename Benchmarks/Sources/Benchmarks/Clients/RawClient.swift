import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code the library is measured against: the leanest an app would write by hand for the same
/// call. It builds the `URLRequest` (URL and the headers the actions would add; GET is
/// `URLRequest`'s default, so no method is set, which on Linux would cost a normalising copy),
/// bridges the completion handler to async with an unsafe continuation (the handler is called
/// exactly once; the checked kind allocates), checks the status and decodes with `JSONDecoder`.
struct RawClient<Transport: RawTransport>: Sendable {
    /// The session it sends through.
    let transport: Transport
    /// The base URL `users` is appended to.
    let baseURL: URL
    /// The headers sent with every request.
    let headers: [(name: String, value: String)]
    /// One decoder for every response, as the library keeps one in its configuration.
    let decoder = JSONDecoder()

    /// `GET users` with the headers.
    func usersRequest() -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(UsersFixture.path))
        for header in headers {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        return request
    }

    /// Sends `GET users` and decodes the list.
    func listUsers() async throws -> [User] {
        let request = usersRequest()
        let data: Data = try await withUnsafeThrowingContinuation { continuation in
            transport.start(request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    if response.statusCode == 200 {
                        continuation.resume(returning: data ?? Data())
                    } else {
                        continuation.resume(throwing: BenchmarkError.unexpectedStatus(response.statusCode))
                    }
                } else {
                    continuation.resume(throwing: BenchmarkError.missingResponse)
                }
            }
        }
        return try decoder.decode([User].self, from: data)
    }
}
