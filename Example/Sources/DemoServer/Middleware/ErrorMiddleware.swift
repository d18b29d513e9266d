internal import Hummingbird

/// Gives every error response, including Hummingbird's own (unknown route, undecodable body), a JSON ``APIError`` body.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as DemoServerError {
            return try Response.json(error.body, status: error.status, headers: error.headers)
        } catch let error as HTTPError {
            let body = APIError(
                error: Self.code(for: error.status),
                message: error.body ?? error.status.reasonPhrase
            )
            return try Response.json(body, status: error.status, headers: error.headers)
        } catch let error as CancellationError {
            // The client is gone; there is nobody to send a body to.
            throw error
        } catch {
            let body = APIError(error: "internal_error", message: "\(error)")
            return try Response.json(body, status: .internalServerError)
        }
    }

    /// A snake_case code derived from the reason phrase, for example `method_not_allowed`.
    static func code(for status: HTTPResponse.Status) -> String {
        let words = status.reasonPhrase.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.isEmpty ? "http_\(status.code)" : words.joined(separator: "_")
    }
}
