internal import Hummingbird

/// An error a route throws to answer with a specific status and a JSON ``APIError`` body.
///
/// ``ErrorMiddleware`` turns it into the response, so routes can bail out with `throw` from any depth.
struct DemoServerError: Error {
    var status: HTTPResponse.Status
    var body: APIError
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> Self {
        Self(status: .badRequest, body: APIError(error: "bad_request", message: message))
    }

    static func unsupportedMediaType(_ message: String) -> Self {
        Self(status: .unsupportedMediaType, body: APIError(error: "unsupported_media_type", message: message))
    }

    static func notFound(_ message: String) -> Self {
        Self(status: .notFound, body: APIError(error: "not_found", message: message))
    }

    static func unauthorized(error: String, message: String) -> Self {
        // RFC 6750 asks a resource server to name the scheme it expects on every 401.
        Self(
            status: .unauthorized,
            body: APIError(error: error, message: message),
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }
}
