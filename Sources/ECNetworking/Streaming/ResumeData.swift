import Foundation

/// What a download that broke part-way needs to carry on from where it stopped: the partial file
/// it kept beside its destination, how much of the body that holds, and the validator that tells
/// whether the server's body is still the same one.
///
/// ```swift
/// do {
///     _ = try await network.download(ReportRequest(year: 2026), to: reportURL)
/// } catch DownloadError.resumable(let resumeData, _) {
///     // Later, perhaps after a relaunch (`ResumeData` is `Codable`):
///     _ = try await network.download(ReportRequest(year: 2026), resumingWith: resumeData)
/// }
/// ```
///
/// It holds no part of the request: no URL, header or query, so it may be stored as it is. The
/// partial file is readable by the user alone, like every file the library writes. When the
/// download is not resumed, ``removePartialFile()`` removes it.
public struct ResumeData: Sendable, Hashable, Codable {
    /// Where the finished file goes.
    public let destination: URL
    /// The partial file, a hidden file beside ``destination``.
    public let partialFileURL: URL
    /// How many bytes of the body the partial file holds.
    public let byteCount: Int64
    /// The whole body's length, when the server said.
    public let expectedByteCount: Int64?
    /// The body's strong validator, which the resumed request sends as `If-Range`: an `ETag`, or
    /// a `Last-Modified` date.
    public let validator: String

    init(destination: URL, partialFileURL: URL, byteCount: Int64, expectedByteCount: Int64?, validator: String) {
        self.destination = destination
        self.partialFileURL = partialFileURL
        self.byteCount = byteCount
        self.expectedByteCount = expectedByteCount
        self.validator = validator
    }

    /// Removes the partial file, for a download that will not be resumed. A file that is not one
    /// the library could have kept for ``destination``, or one a resume is writing, is left alone.
    public func removePartialFile() {
        guard DownloadFile.isPartialFile(partialFileURL, for: destination) else { return }
        DownloadFile.removeUnlessInUse(partialFileURL)
    }
}
