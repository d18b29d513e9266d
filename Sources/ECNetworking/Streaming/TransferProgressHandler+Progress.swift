import Foundation

extension TransferProgressHandler {
    /// A handler that drives a Foundation `Progress`, for a `ProgressView`, a `UIProgressView`
    /// or any other code that observes one: each report of `direction` sets its
    /// `completedUnitCount` to the bytes moved and its `totalUnitCount` to the bytes expected
    /// (`-1`, indeterminate, while unknown).
    ///
    /// ```swift
    /// let progress = Progress(totalUnitCount: 0)
    /// let file = try await network.download(
    ///     ReportRequest(year: 2026), to: reportURL, progress: .updating(progress))
    /// ```
    ///
    /// `Progress` is thread-safe, and it is updated on the thread that reports, which is not the
    /// main thread: a key-value observer is called there too, so hop to the main actor before
    /// touching a view. Its `cancel()` does not reach the send: cancel the task, or use
    /// `cancelAll(of:)`.
    public static func updating(
        _ progress: Progress, direction: TransferProgress.Direction = .download
    ) -> TransferProgressHandler {
        let target = ProgressTarget(progress)
        return TransferProgressHandler { report in
            guard report.direction == direction else { return }
            target.update(to: report)
        }
    }
}

/// A `Progress` the handler updates from whatever thread reports.
///
/// `@unchecked Sendable`: `Progress` guards its own state with a lock (it is documented as
/// thread-safe), but it is not marked `Sendable` on every platform.
private final class ProgressTarget: @unchecked Sendable {
    private let progress: Progress

    init(_ progress: Progress) {
        self.progress = progress
    }

    func update(to report: TransferProgress) {
        progress.totalUnitCount = report.expectedByteCount ?? -1
        progress.completedUnitCount = report.completedByteCount
    }
}
