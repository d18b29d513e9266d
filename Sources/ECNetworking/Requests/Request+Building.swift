import Foundation

extension Request {
    /// The request this one builds against `baseURL` (``buildRequest(with:)``), with its own
    /// ``customProperties`` merged in and the base URL noted (``NetworkBaseURL``): what every
    /// ``Network`` of the package sends, the real one and its test double alike.
    package func networkRequest(baseURL: URL) throws -> NetworkRequest {
        var built = try buildRequest(with: baseURL)
        built.customProperties.merge(customProperties)
        // Noted now, while nothing else shares the request's storage, so that the first attempt
        // finds it there and need not copy the request to note it (see `StageRunner.runStages`).
        built.customProperties[NetworkBaseURL.self] = baseURL
        return built
    }
}
