/// Which send, and which attempt of it, a request belongs to: with logging on or an integration
/// set, the runner notes it on the request so that log entries and integrations can tell sends and
/// retries apart without any state of their own. Each attempt renews the number.
struct SendAttempt: Sendable, CustomPropertyKey {
    /// Unique among the sends of the process.
    let sendID: UInt64
    /// 1 for the first attempt; 0 before the first attempt begins.
    let number: Int
    /// When the send began, so a failure can say how long the send ran.
    let sendStart: SendMoment

    static let defaultValue: SendAttempt? = nil

    /// The number the next send takes.
    private static let counter = LockedState<UInt64>(0)

    /// A new send's identity, before its first attempt.
    static func nextSend(startingAt start: SendMoment) -> SendAttempt {
        let id = counter.withLock { value in
            value += 1
            return value
        }
        return SendAttempt(sendID: id, number: 0, sendStart: start)
    }

    /// The same send, at attempt `number`.
    func attempt(_ number: Int) -> SendAttempt {
        SendAttempt(sendID: sendID, number: number, sendStart: sendStart)
    }
}
