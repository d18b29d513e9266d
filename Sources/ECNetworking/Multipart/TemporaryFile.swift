import Foundation

/// An empty file in the temporary directory, removed when the last reference goes: a request
/// body written to disk lives exactly as long as the attempt that sends it.
final class TemporaryFile: Sendable {
    let url: URL

    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the file cannot be created.
    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw NetworkError.invalidRequest(reason: "a temporary file for the body could not be created")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
