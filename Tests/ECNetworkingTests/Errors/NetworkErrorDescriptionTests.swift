import ECNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Descriptions of errors hide secrets")
struct NetworkErrorDescriptionTests {
    /// A transport error as FoundationNetworking builds it: the failing URL, token and userinfo
    /// included, sits in its user info.
    private static let transportError = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: Planted.url])

    private static let decodingError = DecodingError.typeMismatch(
        Int.self, .init(codingPath: [], debugDescription: "Expected to decode Int but found a dictionary instead."))

    private static let encodingError = EncodingError.invalidValue(
        "PLANTED-ENCODING-1", .init(codingPath: [], debugDescription: "The value cannot be encoded."))

    /// Every case that carries a response, an underlying error or a URL.
    private static let errors: [NetworkError] = [
        .encodingFailed(encodingError),
        .requestBodyFailed(transportError),
        .transport(transportError),
        .unacceptableStatusCode(Planted.response),
        .decodingFailed(decodingError, response: Planted.response),
        .retryLimitReached(attempts: 4, response: Planted.response),
        .retriesExhausted(attempts: 3, lastError: NetworkError.unacceptableStatusCode(Planted.response)),
        .retriesExhausted(attempts: 2, lastError: NetworkError.transport(transportError)),
        .retriesExhausted(attempts: 2, lastError: transportError),
    ]

    @Test("no rendering of an error shows a secret of its response, request, URL or underlying error")
    func everyCase() {
        for error in Self.errors {
            expectNoSecrets(in: renderings(of: error), Planted.coveredByDefaults + ["PLANTED-ENCODING-1"])
            expectNoSecrets(in: renderings(of: error as any Error), Planted.coveredByDefaults + ["PLANTED-ENCODING-1"])
        }
    }

    @Test("descriptions keep what a person needs: the status, the body's other fields, the URL error code")
    func usefulDetails() {
        let unacceptable = NetworkError.unacceptableStatusCode(Planted.response)
        #expect(String(describing: unacceptable).contains("401"))
        #expect(unacceptable.localizedDescription.contains(#""error":"expired""#))
        #expect(String(reflecting: unacceptable).contains("api.example.com/v1/login"))

        let transport = NetworkError.transport(Self.transportError)
        #expect(String(describing: transport).contains("-1001"))
        #expect(String(reflecting: transport).contains("api.example.com/v1/login"))

        // FoundationNetworking's code for what it has no code for (libcurl's "Out of memory" for a
        // request head over its limit): no claim about the server, and the message kept.
        let unknown = NetworkError.transport(
            URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Out of memory"]))
        #expect(!unknown.localizedDescription.contains("could not be reached"), "\(unknown.localizedDescription)")
        #expect(unknown.localizedDescription.contains("Out of memory"), "\(unknown.localizedDescription)")

        let exhausted = NetworkError.retriesExhausted(attempts: 3, lastError: unacceptable)
        #expect(String(describing: exhausted).contains("3 attempts"))
        #expect(String(describing: exhausted).contains("401"))
    }
}
