internal import Hummingbird

/// `POST /upload/form`: reads a `multipart/form-data` body part by part as it arrives and replies
/// with a ``FormUploadReceipt`` describing each part (name, file name, content type, size, CRC-32,
/// and the text of a field).
///
/// A body that is not `multipart/form-data` with a boundary is a `415`; a malformed form is a
/// `400` naming what is wrong (see ``MultipartFormReader``).
struct FormUploadRoutes {
    func register(on router: Router<BasicRequestContext>) {
        router.post("upload/form") { request, _ in
            var reader = MultipartFormReader(boundary: try Self.boundary(of: request.headers[.contentType]))
            for try await buffer in request.body {
                try reader.read(buffer.readableBytesView)
            }
            return try Response.json(FormUploadReceipt(parts: try reader.finish()))
        }
    }

    /// The `boundary` parameter of a `multipart/form-data` content type.
    private static func boundary(of contentType: String?) throws -> String {
        guard let contentType, let parsed = HeaderParameters(contentType), parsed.value == "multipart/form-data"
        else {
            throw DemoServerError.unsupportedMediaType(
                "The body must be multipart/form-data, not \(contentType ?? "untyped").")
        }
        // RFC 2046: 1 to 70 characters.
        guard let boundary = parsed.parameters["boundary"], (1...70).contains(boundary.utf8.count) else {
            throw DemoServerError.badRequest("The multipart/form-data content type has no valid boundary.")
        }
        return boundary
    }
}
