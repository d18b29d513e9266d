import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("ActionDeadline")
struct ActionDeadlineTests {
    @Test("an action is cancelled even when its deadline passes before its task is stored")
    func deadlineRacingStart() async throws {
        let iterations = 2_000
        let ended = Counter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<iterations {
                // At most 100 at a time: enough to keep the scheduler's timer busy, not the machine.
                if index >= 100 { await group.next() }
                group.addTask {
                    _ = try? await ActionDeadline<Int>.run("Racer", timeout: .nanoseconds(1)) {
                        // Ends at once when cancelled; an action nobody cancels waits a minute.
                        try? await Task.sleep(for: .seconds(60))
                        ended.increment()
                        return 0
                    }
                }
            }
        }
        try await waitUntil(timeout: .seconds(20)) { ended.count == iterations }
    }
}
