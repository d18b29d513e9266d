import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a download did not end in its file.
public enum DownloadError: Error, Sendable, LocalizedError {
    /// The temporary file beside the destination could not be created.
    case cannotCreateFile(URL, errorCode: Int32)
    /// Writing the body failed (a full disk, say).
    case cannotWrite(URL, errorCode: Int32)
    /// The complete file could not be moved to the destination.
    case cannotMove(to: URL, errorCode: Int32)
    /// A file is already at the destination, and ``DownloadOptions/replacesExistingFile`` is `false`.
    case fileExists(URL)
    /// The body broke part-way, for `cause` (a ``NetworkError``: the connection was lost, the
    /// body went idle), and what arrived is kept: pass the ``ResumeData`` to
    /// ``Network/download(_:resumingWith:options:priority:progress:)-(R,_,_,_,_)`` to fetch the rest,
    /// or call its ``ResumeData/removePartialFile()``. See ``DownloadOptions/keepsPartialFile``.
    case resumable(ResumeData, cause: any Error)
    /// The server answered a resume with `416 Range Not Satisfiable`: the body is now shorter
    /// than what was kept. The partial file is removed; download it again from the start.
    case rangeNotSatisfiable(completeLength: Int64?)
    /// The server answered a resume with `206` but not with the rest of the body asked for: its
    /// `Content-Range` starts at `receivedOffset` rather than `expectedOffset`; or (`nil`) it is
    /// missing or malformed, stops short of the body's end, or the body sent is longer or
    /// shorter than the range it names; or the body is encoded. The partial file is removed.
    ///
    /// A download whose request asked for no range (no `Range` header) fails the same way, with
    /// `expectedOffset` 0, when the server answers `206` with part of the body: nothing is kept
    /// at the destination. A `206` whose `Content-Range` is the whole body (`bytes 0-(n-1)/n`,
    /// unencoded, and a body of that length) is saved as the file, since it is byte for byte
    /// what a `200` would have brought. A request that sets `Range` itself gets the part it asked
    /// for, saved as the file.
    case unexpectedRange(expectedOffset: Int64, receivedOffset: Int64?)

    /// A description of the error.
    public var errorDescription: String? {
        switch self {
        case .cannotCreateFile(let url, let code):
            "A file for the download could not be created in \(url.deletingLastPathComponent().path): \(Self.reason(code))."
        case .cannotWrite(let url, let code):
            "The download could not be written to \(url.path): \(Self.reason(code))."
        case .cannotMove(let url, let code):
            "The download could not be moved to \(url.path): \(Self.reason(code))."
        case .fileExists(let url):
            "A file is already at \(url.path), and the download does not replace it."
        case .resumable(let resumeData, let cause):
            "The download broke after \(resumeData.byteCount) bytes, which are kept so that it can be resumed: "
                + cause.localizedDescription
        case .rangeNotSatisfiable(let length):
            "The server could not resume the download: its body is now \(length.map { "\($0) bytes" } ?? "shorter")."
        case .unexpectedRange(0, let received?):
            "The server answered the download with part of the body, from byte \(received), rather than the whole body."
        case .unexpectedRange(0, nil):
            "The server answered the download with part of the body rather than the whole body."
        case .unexpectedRange(let expected, let received?):
            "The server answered the resumed download from byte \(received) rather than byte \(expected)."
        case .unexpectedRange(let expected, nil):
            "The server did not answer the resumed download with the rest of the body from byte \(expected)."
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
