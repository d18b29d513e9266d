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

    /// What `JSONDecoder` says of an enum's raw value it does not know: the value, quoted.
    private static let decodingErrorQuotingAValue = DecodingError.dataCorrupted(
        .init(
            codingPath: [AnyKey("account"), AnyKey("password")],
            debugDescription: "Cannot initialize Kind from invalid String value PLANTED-DECODING-1"))

    private static let encodingError = EncodingError.invalidValue(
        "PLANTED-ENCODING-1", .init(codingPath: [], debugDescription: "The value cannot be encoded."))

    /// Every case that carries a response, an underlying error or a URL.
    private static let errors: [NetworkError] = [
        .encodingFailed(encodingError),
        .requestBodyFailed(transportError),
        .transport(transportError),
        .unacceptableStatusCode(Planted.response),
        .decodingFailed(decodingError, response: Planted.response),
        .decodingFailed(decodingErrorQuotingAValue, response: Planted.response),
        .retryLimitReached(attempts: 4, response: Planted.response),
        .retriesExhausted(attempts: 3, lastError: NetworkError.unacceptableStatusCode(Planted.response)),
        .retriesExhausted(attempts: 2, lastError: NetworkError.transport(transportError)),
        .retriesExhausted(attempts: 2, lastError: transportError),
    ]

    @Test("no rendering of an error shows a secret of its response, request, URL or underlying error")
    func everyCase() {
        for error in Self.errors {
            let planted = Planted.coveredByDefaults + ["PLANTED-ENCODING-1", "PLANTED-DECODING-1"]
            expectNoSecrets(in: renderings(of: error), planted)
            expectNoSecrets(in: renderings(of: error as any Error), planted)
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

        // A decoding error keeps its kind, its path and, away from sensitive fields, its explanation.
        let decoding = NetworkError.decodingFailed(Self.decodingError, response: Planted.response)
        #expect(String(describing: decoding).contains("typeMismatch(Int) at the top level"), "\(decoding)")
        #expect(String(describing: decoding).contains("found a dictionary instead"), "\(decoding)")
        let quoting = NetworkError.decodingFailed(Self.decodingErrorQuotingAValue, response: Planted.response)
        #expect(String(describing: quoting).contains("dataCorrupted at account.password"), "\(quoting)")

        let exhausted = NetworkError.retriesExhausted(attempts: 3, lastError: unacceptable)
        #expect(String(describing: exhausted).contains("3 attempts"))
        #expect(String(describing: exhausted).contains("401"))
    }
}

/// A coding key of any name, for decoding errors made by hand.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
