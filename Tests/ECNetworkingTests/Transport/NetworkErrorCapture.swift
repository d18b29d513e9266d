import Foundation
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `NetworkError` that `operation` threw; records an issue when it threw something else or
/// nothing, so that a short success (a truncated body taken for a whole one) fails the test.
func networkError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws -> Void
) async -> NetworkError? {
    do {
        try await operation()
        Issue.record("expected a NetworkError, but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("expected a NetworkError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

extension NetworkError {
    /// The `URLError` code of a `.transport` error.
    var transportCode: URLError.Code? {
        if case .transport(let error) = self { return error.code }
        return nil
    }
}
