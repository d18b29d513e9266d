import Foundation

extension NetworkError: LocalizedError {
    /// A sentence a person can act on, with secrets redacted as described on ``SensitiveData``
    ///: a response body is shown in part, after redaction.
    public var errorDescription: String? {
        sentence(redaction: .forDescriptions)
    }

    /// How many bytes of a response body a sentence shows.
    static let bodySnippetLimit = 200

    /// The sentence of ``errorDescription``, redacted with `redaction`, so the built-in logging
    /// can apply the configuration's sensitive names.
    func sentence(redaction: Redaction) -> String {
        switch self {
        case .invalidRequest(let reason):
            "The request is invalid and was not sent: \(reason)."
        case .encodingFailed(let error):
            "The request body could not be encoded: \(redaction.describe(error))."
        case .transport(let error):
            "\(requestMayHaveBeenSent ? Self.mayHaveBeenSentSentence : Self.transportSentence(error.code)) (URLError \(error.code.rawValue)): "
                + (transportCause ?? error.localizedDescription)
        case .timedOut(let duration):
            "The request timed out after \(duration)."
        case .unacceptableStatusCode(let response):
            "The server answered with status \(response.statusCode)\(Self.bodySnippet(response, redaction: redaction))."
        case .unacceptableContentType(let response):
            "The response's content type \(response.headers["Content-Type"].map { "\"\($0)\"" } ?? "(none)") is not one the request accepts."
        case .bodyNotReplayable(let response, let lastError):
            "The request was not sent again, since its body was a stream, read once"
                + (lastError.map { "; the attempt failed: \(redaction.describe($0))" }
                    ?? response.map { "; the attempt answered with status \($0.statusCode)." } ?? ".")
        case .decodingFailed(let error, let response):
            "The response (status \(response.statusCode), \(response.body.count) bytes) could not be decoded: "
                + "\(redaction.describe(error))."
        case .retryLimitReached(let attempts, let response):
            "An action asked for another retry after \(attempts) attempts, the most allowed; the last answered with status \(response.statusCode)."
        case .invalidResponse:
            "The server's answer is not an HTTP response."
        case .responseTooLarge(let limit):
            "The response was larger than the limit of \(limit) bytes, so the transfer was stopped."
        case .readerFellBehind(let limit):
            "The response's reader fell behind and the bytes kept for it reached the limit of \(limit) bytes, so the transfer was stopped."
        case .requestBodyFailed(let error):
            "The request body's stream failed while it was sent: \(redaction.describe(error))."
        case .tooManyRedirects(let limit):
            "The server redirected more than \(limit) times."
        case .redirectRefused(let scheme):
            "The server redirected to \(scheme.isEmpty ? "a URL without a scheme" : "a \(scheme) URL"), which was not followed: only http and https redirects are."
        case .actionTimedOut(let action, let duration):
            "The action \(action) did not finish within \(duration)."
        case .retriesExhausted(let attempts, let lastError):
            "The retry policy gave up after \(attempts) attempts: \(redaction.describe(lastError))"
        case .actionDidNotComplete(let action):
            "The action \(action) released its completion handler without calling it."
        case .actionNotImplemented(let action):
            "The action \(action) implements neither its async nor its completion-handler method."
        case .cancelled:
            "The request was cancelled."
        case .invalidated:
            "The request was not sent: its network was invalidated, or its transport shut down, and sends nothing any more."
        case .tlsSettingUnavailable(let setting):
            "The request was not sent: its transport cannot apply the TLS policy's \(setting.rawValue)."
        }
    }

    /// What a lost connection means for a request ``requestMayHaveBeenSent`` is `true` of.
    private static let mayHaveBeenSentSentence =
        "The connection was lost before any answer, and the server may have received the request; "
        + "it was not sent again, since its method is not idempotent"

    /// What a transport failure with `code` means for the caller: the server was reached in
    /// every case but the first, and saying otherwise sends them looking in the wrong place.
    private static func transportSentence(_ code: URLError.Code) -> String {
        switch code {
        case .networkConnectionLost:
            "The connection was lost before the response was complete"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            "The secure connection could not be established"
        case .cannotDecodeContentData, .cannotDecodeRawData, .cannotParseResponse, .badServerResponse:
            "The server's answer could not be read"
        case .timedOut:
            "The request timed out"
        case .cannotCreateFile, .cannotWriteToFile:
            "The response could not be kept on disk"
        case .badURL, .unsupportedURL, .dataLengthExceedsMaximum:
            "The transport could not send the request as it is"
        case .unknown:
            // FoundationNetworking's code for a libcurl failure it has no code for (a request head
            // over libcurl's limit is "Out of memory"): the message that follows is all there is.
            "The transport failed"
        default:
            "The server could not be reached"
        }
    }

    private static func bodySnippet(_ response: NetworkResponse, redaction: Redaction) -> String {
        guard !response.body.isEmpty else { return "" }
        let contentType = response.headers["Content-Type"]
        return ": " + redaction.bodyPreview(response.body, contentType: contentType, limit: bodySnippetLimit)
    }
}
