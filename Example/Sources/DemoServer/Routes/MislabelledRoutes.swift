internal import Hummingbird
internal import NIOCore

/// `GET /mislabelled?type=T`: a JSON ``MislabelledReply`` sent as `Content-Type: T` (by default
/// `text/html; charset=utf-8`, as a proxy's or a captive portal's page would come), so a client
/// can show that it checks the type before it decodes a body that would have decoded.
struct MislabelledRoutes {
    static let defaultType = "text/html; charset=utf-8"

    func register(on router: Router<BasicRequestContext>) {
        router.get("mislabelled") { request, _ in
            let contentType = request.uri.queryParameters.get("type").map { String($0) } ?? Self.defaultType
            guard !contentType.isEmpty, contentType.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) })
            else {
                throw DemoServerError.badRequest("`type` must be printable ASCII.")
            }
            var response = try Response.json(MislabelledReply(contentType: contentType))
            response.headers[.contentType] = contentType
            return response
        }
    }
}
