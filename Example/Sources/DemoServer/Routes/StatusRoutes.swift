internal import Hummingbird

/// `GET /status/{code}`: replies with the requested status and a JSON error body.
///
/// Statuses that must not carry a body (204, 205, 304) get none. `?retryAfter=N` adds `Retry-After: N`,
/// for testing how a client treats it on `429` or `503`.
struct StatusRoutes {
    static let statusesWithoutBody: Set<Int> = [204, 205, 304]

    func register(on router: Router<BasicRequestContext>) {
        router.get("status/{code}") { request, context in
            let code = try context.parameters.require("code", as: Int.self)
            guard (200...599).contains(code) else {
                throw DemoServerError.badRequest("The status must be from 200 to 599.")
            }
            let status = HTTPResponse.Status(code: code)
            var headers: HTTPFields = [:]
            if let retryAfter = request.uri.queryParameters.get("retryAfter") {
                headers[.retryAfter] = retryAfter
            }
            if Self.statusesWithoutBody.contains(code) {
                return Response(status: status, headers: headers)
            }
            let body = APIError(
                error: "http_\(code)",
                message: "Status \(code) as requested."
            )
            return try Response.json(body, status: status, headers: headers)
        }
    }
}
