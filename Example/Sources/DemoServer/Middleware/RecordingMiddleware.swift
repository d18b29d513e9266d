internal import Hummingbird

/// Records the method, path, query and headers of every request before it is handled.
struct RecordingMiddleware<Context: RequestContext>: RouterMiddleware {
    let recorder: RequestRecorder

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        await recorder.record(
            RecordedRequest(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query,
                headers: RecordedHeaders(request.headers)
            )
        )
        return try await next(request, context)
    }
}
