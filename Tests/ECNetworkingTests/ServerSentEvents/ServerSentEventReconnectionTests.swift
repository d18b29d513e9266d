import Foundation
import Testing

@testable import ECNetworking

@Suite("Server-Sent Events reconnection delays")
struct ServerSentEventReconnectionTests {
    @Test("a zero delay, the client's or a server's retry: 0, still waits and still backs off")
    func zeroDelayBacksOff() {
        let reconnection = ServerSentEventReconnection(delay: .zero, maximumDelay: .seconds(60))
        #expect(reconnection.wait(after: 0, serverDelay: .zero) >= ServerSentEventReconnection.minimumDelay)
        let afterThree = reconnection.wait(after: 3, serverDelay: .zero)
        #expect(afterThree >= ServerSentEventReconnection.minimumDelay * 8)
        #expect(afterThree <= ServerSentEventReconnection.minimumDelay * 12)
    }

    @Test("the wait doubles per failure, with at most half again as jitter, up to the cap")
    func exponentialWithCap() {
        let reconnection = ServerSentEventReconnection(delay: .seconds(1), maximumDelay: .seconds(10))
        for failures in 0...6 {
            let wait = reconnection.wait(after: failures, serverDelay: .seconds(1))
            let base = min(Duration.seconds(1) * (1 << failures), .seconds(10))
            #expect(wait >= base && wait <= min(base * 1.5, .seconds(10)), "\(failures): \(wait)")
        }
        // A server's retry longer than the cap is still honoured.
        #expect(reconnection.wait(after: 2, serverDelay: .seconds(30)) >= .seconds(30))
    }
}
