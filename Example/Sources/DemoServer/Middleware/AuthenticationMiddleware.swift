internal import Hummingbird

/// Lets a request through only with `Authorization: Bearer <token>` naming a token that has not expired.
struct AuthenticationMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenStore

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token = Self.bearerToken(in: request.headers) else {
            throw DemoServerError.unauthorized(
                error: "missing_token",
                message: "This endpoint requires an `Authorization: Bearer <token>` header."
            )
        }
        switch await tokens.validity(of: token) {
        case .valid:
            return try await next(request, context)
        case .unknown:
            throw DemoServerError.unauthorized(error: "invalid_token", message: "The bearer token is not known.")
        case .expired:
            throw DemoServerError.unauthorized(error: "token_expired", message: "The bearer token has expired.")
        }
    }

    static func bearerToken(in headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else {
            return nil
        }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        // The scheme name is case-insensitive (RFC 9110 section 11.1).
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return nil
        }
        return String(parts[1])
    }
}
