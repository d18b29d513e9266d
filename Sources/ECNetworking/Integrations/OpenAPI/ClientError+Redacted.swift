#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    extension ClientError {
        /// The runtime's error for a failed send, showing no secret: the runtime fills in only what
        /// an error it receives leaves empty, so the request, base URL and input are set here, the
        /// request with sensitive header values, the URLs in the others and sensitive query
        /// parameters redacted as the library's descriptions are, the input left out.
        static func redacted(
            wrapping error: any Error,
            request: HTTPRequest,
            baseURL: URL,
            operationID: String
        ) -> ClientError {
            let redaction = Redaction.forDescriptions
            var shown = request
            shown.path = request.path.map { redaction.urlText($0, placeholder: Redaction.urlPlaceholder) }
            shown.headerFields = HTTPFields(
                request.headerFields.map { field in
                    HTTPField(
                        name: field.name, value: redaction.headerValue(name: field.name.rawName, value: field.value))
                })
            return ClientError(
                operationID: operationID,
                operationInput: Redaction.placeholder,
                request: shown,
                // A URL that parsed once parses again redacted; still, the original must never be shown.
                baseURL: redaction.redactedURL(baseURL) ?? URL(string: "about:blank"),
                causeDescription: "Transport threw an error.",
                underlyingError: error)
        }
    }
#endif
