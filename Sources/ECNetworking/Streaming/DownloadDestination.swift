import Foundation

/// Where a download's file goes: a file named before the send, or one picked once the response's
/// head has arrived, from its headers and the name it suggests.
///
/// ```swift
/// let file = try await network.download(ReportRequest(year: 2026), to: .suggestedName(in: downloadsFolder))
/// print(file.fileURL.lastPathComponent)  // the server's Content-Disposition name, made safe
/// ```
public struct DownloadDestination: Sendable {
    /// The file, when it is known before the send.
    let fixedURL: URL?
    /// Picks the file from the head and the suggested name.
    let pick: @Sendable (_ response: NetworkResponse, _ suggestedName: String) throws -> URL
    /// The folder the file will be in, when it is known before the send, so that a folder that
    /// cannot be written fails before anything is sent.
    let knownFolder: URL?

    private init(
        fixedURL: URL?, knownFolder: URL?, pick: @escaping @Sendable (NetworkResponse, String) throws -> URL
    ) {
        self.fixedURL = fixedURL
        self.knownFolder = knownFolder
        self.pick = pick
    }

    /// The file at `url`.
    public static func file(_ url: URL) -> DownloadDestination {
        DownloadDestination(fixedURL: url, knownFolder: url.deletingLastPathComponent()) { _, _ in url }
    }

    /// A file in `folder`, named as the response suggests: the `Content-Disposition` header's
    /// `filename*` or `filename`, else the last component of the URL's path, else `download`.
    /// The server controls that name, so only a plain name is used: no path separator or what
    /// comes before it, no control character, no bidirectional control or other invisible format
    /// character (which could show `photo\u{202E}gpj.exe` as `photoexe.jpg`), no leading dot (so
    /// neither `..` nor a hidden file), at most 255 bytes.
    public static func suggestedName(in folder: URL) -> DownloadDestination {
        DownloadDestination(fixedURL: nil, knownFolder: folder) { _, name in folder.appendingPathComponent(name) }
    }

    /// The file `choose` picks once the head has arrived (status, headers, the request as sent),
    /// given the name the response suggests, made safe as ``suggestedName(in:)`` says. An error it
    /// throws ends the download, with nothing written.
    public static func chosen(
        _ choose: @escaping @Sendable (_ response: NetworkResponse, _ suggestedName: String) throws -> URL
    ) -> DownloadDestination {
        DownloadDestination(fixedURL: nil, knownFolder: nil, pick: choose)
    }
}
