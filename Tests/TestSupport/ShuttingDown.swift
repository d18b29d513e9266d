/// Runs `body` with `resource`, then `shutdown(resource)` whether `body` threw or not, so that a
/// client or transport never outlives the test that made it. A failed shutdown is thrown only
/// when `body` returned; otherwise `body`'s error is.
public func withShutdown<Resource, Result>(
    of resource: Resource,
    _ shutdown: (Resource) async throws -> Void,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(resource)
        try await shutdown(resource)
        return result
    } catch {
        try? await shutdown(resource)
        throw error
    }
}
