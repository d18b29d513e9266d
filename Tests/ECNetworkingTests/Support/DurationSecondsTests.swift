import Foundation
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Duration in seconds")
struct DurationSecondsTests {
    @Test(
        "a duration is the seconds Foundation and Dispatch are given, fractions and sign kept",
        arguments: [
            (Duration.seconds(60), 60.0), (.milliseconds(1_500), 1.5), (.zero, 0), (.nanoseconds(1), 1e-9),
            (.milliseconds(-250), -0.25), (.seconds(86_400 * 365), 31_536_000),
        ])
    func seconds(duration: Duration, expected: Double) {
        #expect(duration.seconds == expected)
    }

    @Test("the backstop a URLSession gets is a whole second beyond the library's own deadline")
    func backstop() throws {
        let request = TransportRequest(
            method: .get, url: URL(string: "http://127.0.0.1:1/")!, headers: [:], body: nil,
            timeout: .milliseconds(2_500), maximumResponseSize: nil, cachePolicy: nil)
        #expect(try URLRequest(request, streamedBody: nil).timeoutInterval == 4)
    }
}
