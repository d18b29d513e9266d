internal import Hummingbird
internal import NIOCore

/// `POST /upload`: counts the body bytes received; with `?echo=1` sends the body back instead.
struct UploadRoutes {
    static let maximumEchoSize = 64 * 1_024 * 1_024

    func register(on router: Router<BasicRequestContext>) {
        router.post("upload") { request, _ in
            if request.uri.queryParameters.get("echo") == "1" {
                // Collected before replying: streaming it straight back could stall a client that
                // only reads the response once it has sent the whole body.
                var request = request
                let body = try await request.collectBody(upTo: Self.maximumEchoSize)
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/octet-stream"],
                    body: ResponseBody(byteBuffer: body)
                )
            }
            var byteCount = 0
            for try await buffer in request.body {
                byteCount += buffer.readableBytes
            }
            return try Response.json(UploadReceipt(bytes: byteCount))
        }
    }
}
