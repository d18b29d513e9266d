internal import Hummingbird

/// `GET /redirect?to=URL`: redirects to any URL, including another origin.
///
/// `?status=` picks 301, 302 (the default), 303, 307 or 308, since clients treat the method differently for each.
struct RedirectRoutes {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    func register(on router: Router<BasicRequestContext>) {
        router.get("redirect") { request, _ in
            guard let target = request.uri.queryParameters.get("to"), !target.isEmpty else {
                throw DemoServerError.badRequest("Query parameter `to` is required.")
            }
            let code = try request.integerQueryParameter("status", in: 300...399, default: 302)
            guard Self.redirectStatuses.contains(code) else {
                throw DemoServerError.badRequest("Query parameter `status` must be 301, 302, 303, 307 or 308.")
            }
            return Response(status: HTTPResponse.Status(code: code), headers: [.location: target])
        }
    }
}
