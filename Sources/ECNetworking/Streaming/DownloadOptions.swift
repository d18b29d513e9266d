import Foundation

/// How ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)`` puts its file in place,
/// and treats a body that breaks part-way.
///
/// ```swift
/// var options = DownloadOptions()
/// options.resumption = .policy(RetryPolicy(maximumAttempts: 5))
/// let file = try await network.download(ReportRequest(year: 2026), to: reportURL, options: options)
/// ```
public struct DownloadOptions: Sendable {
    /// When a broken body is resumed on its own, before the download gives up.
    public enum Resumption: Sendable {
        /// By the network's ``NetworkConfiguration/retryPolicy``: a network that retries failed
        /// sends resumes broken bodies by the same rules. None when it has no policy, or is not a
        /// ``HTTPNetwork``.
        case networkRetryPolicy
        /// By `policy`: its ``RetryPolicy/shouldRetry(_:after:attempt:)`` picks the failures (a
        /// broken body, or a resumption whose request failed), counting attempts from the last
        /// transfer that moved the body on, and its delays space the resumptions.
        case policy(RetryPolicy)
        /// Never: the first break ends the download (with ``DownloadError/resumable(_:cause:)``
        /// when the partial file is kept).
        case never
    }

    /// Whether a body that breaks part-way keeps what arrived, for a resume. `true` by default.
    ///
    /// Kept only when the server can answer a resume: the response had a strong validator (a
    /// strong `ETag`, or a `Last-Modified` date at least a minute older than its `Date`), no
    /// `Content-Encoding` and no `Accept-Ranges: none`, and the body broke (the connection, a
    /// stall, or a status that may pass: 408, 429, 5xx) rather than being cancelled or refused
    /// (``NetworkError/responseTooLarge(limit:)``, a 404). The download then throws
    /// ``DownloadError/resumable(_:cause:)``, whose ``ResumeData`` resumes it. Otherwise, or with
    /// `false`, the partial file is removed and the send's own error is thrown.
    public var keepsPartialFile: Bool
    /// When a broken body is resumed before the download gives up; ``Resumption/networkRetryPolicy``
    /// by default.
    public var resumption: Resumption

    /// Whether the destination's missing folders are created; `false` by default, when a missing
    /// folder fails with ``DownloadError/cannotCreateFile(_:errorCode:)``.
    public var createsIntermediateDirectories: Bool
    /// Whether a file already at the destination is replaced; `true` by default. With `false`, a
    /// download to a file that exists fails with ``DownloadError/fileExists(_:)``: before anything
    /// is sent when the destination is known then, and at the end if one appeared meanwhile (the
    /// file is put in place only where none is, in one step).
    public var replacesExistingFile: Bool
    /// Whether the finished file is flushed to the disk (`fsync`) before it is moved into place,
    /// and its folder after; `false` by default, as `URLSession` and Alamofire do.
    ///
    /// Either way the file is moved into place in one rename once its last byte is written, so a
    /// process that dies, however it dies, leaves the old file or the whole new one at the
    /// destination. With `true` that also holds after a power loss or a crash of the system, which
    /// can otherwise leave the new name on a file whose bytes never reached the disk; the download
    /// then ends only once the disk has written the whole file, which for a large file is a
    /// noticeable part of the transfer's time.
    public var flushesToDisk: Bool

    /// Creates options; each argument has the default its property describes.
    public init(
        keepsPartialFile: Bool = true, resumption: Resumption = .networkRetryPolicy,
        createsIntermediateDirectories: Bool = false, replacesExistingFile: Bool = true,
        flushesToDisk: Bool = false
    ) {
        self.keepsPartialFile = keepsPartialFile
        self.resumption = resumption
        self.createsIntermediateDirectories = createsIntermediateDirectories
        self.replacesExistingFile = replacesExistingFile
        self.flushesToDisk = flushesToDisk
    }
}
