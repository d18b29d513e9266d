import Foundation

/// Runs `body` with a new directory under the system's temporary directory, and removes the
/// directory afterwards, also when `body` throws, so no test leaves files behind.
func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("ECNetworkingExample-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
}
