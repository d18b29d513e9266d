internal import Hummingbird
internal import NIOCore

/// `/echo`: replies with what it received, so client tests can see exactly what went over the wire.
struct EchoRoutes {
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
    static let maximumBodySize = 16 * 1_024 * 1_024

    func register(on router: Router<BasicRequestContext>) {
        for method in Self.methods {
            router.on("echo", method: method) { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: Self.maximumBodySize)
                let reply = EchoReply(
                    method: request.method.rawValue,
                    path: request.uri.path,
                    query: request.uri.query,
                    headers: RecordedHeaders(request.headers).joined,
                    body: String(buffer: body)
                )
                return try Response.json(reply)
            }
        }
    }
}
