import Foundation

/// Writes `data` to `url`, creating its directory first, and returns `url`.
func write(_ data: Data, to url: URL) throws -> URL {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
}

/// The names of the files in `directory`, sorted; none when it does not exist.
func fileNames(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}
