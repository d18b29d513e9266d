internal import Hummingbird
internal import NIOCore

/// `GET /mislabelled?type=T`: a JSON ``MislabelledReply`` sent as `Content-Type: T` (by default
/// `text/html; charset=utf-8`), as some APIs label their JSON; with `page=1`, an HTML sign-in page
/// instead, as a captive portal or a proxy answers. A client can show what it decodes and what it
/// refuses.
struct MislabelledRoutes {
    static let defaultType = "text/html; charset=utf-8"
    /// What `page=1` answers.
    static let page = "<html><body>Sign in to continue</body></html>"

    func register(on router: Router<BasicRequestContext>) {
        router.get("mislabelled") { request, _ in
            let contentType = request.uri.queryParameters.get("type").map { String($0) } ?? Self.defaultType
            guard !contentType.isEmpty, contentType.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) })
            else {
                throw DemoServerError.badRequest("`type` must be printable ASCII.")
            }
            var response =
                request.uri.queryParameters.get("page") == "1"
                ? Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: Self.page)))
                : try Response.json(MislabelledReply(contentType: contentType))
            response.headers[.contentType] = contentType
            return response
        }
    }
}
