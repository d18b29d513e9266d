internal import Hummingbird

/// Counts the requests whose handler is running, so tests can observe how many a client sends concurrently.
///
/// A request counts until its handler returns; streaming a response body afterwards (as `/files/large`, `/stream/tokens` and `/events` do) is not counted.
struct InFlightMiddleware<Context: RequestContext>: RouterMiddleware {
    let recorder: RequestRecorder

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        await recorder.requestStarted()
        do {
            let response = try await next(request, context)
            await recorder.requestFinished()
            return response
        } catch {
            await recorder.requestFinished()
            throw error
        }
    }
}
