import ECNetworking
import Foundation

/// Turns a transfer's progress reports, which come every few kilobytes, into a few console lines:
/// one each time a quarter of the expected length is crossed, such as
/// `upload 50 %: 2.0 of 4.0 MiB`, or each MiB when the length is not known.
struct ProgressMilestones {
    /// The last milestone reached in each direction: a quarter, or a MiB without a known length.
    private var reached: [TransferProgress.Direction: Int] = [:]
    /// Every report, for the checks after the transfer.
    private(set) var reports: [TransferProgress] = []

    /// The line for `progress`, when it crosses a milestone.
    mutating func line(for progress: TransferProgress) -> String? {
        reports.append(progress)
        let direction = progress.direction == .upload ? "upload" : "download"
        let done = Self.size(progress.completedByteCount)
        guard let fraction = progress.fractionCompleted, let expected = progress.expectedByteCount else {
            let mebibyte = Int(progress.completedByteCount >> 20)
            guard mebibyte > reached[progress.direction, default: 0] else { return nil }
            reached[progress.direction] = mebibyte
            return "\(direction) \(done)"
        }
        let quarter = Int(fraction * 4)
        guard quarter > reached[progress.direction, default: 0] else { return nil }
        reached[progress.direction] = quarter
        return "\(direction) \(quarter * 25) %: \(done) of \(Self.size(expected))"
    }

    /// The reports of one direction.
    func reports(_ direction: TransferProgress.Direction) -> [TransferProgress] {
        reports.filter { $0.direction == direction }
    }

    /// `bytes` in MiB with one decimal, or in bytes under a MiB.
    private static func size(_ bytes: Int64) -> String {
        bytes < 1_048_576 ? "\(bytes) bytes" : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
