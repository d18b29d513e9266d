import Foundation

extension Request {
    /// The typed response to `response`, once its `Content-Type` is checked (see
    /// ``ContentTypeValidation``): what every ``Network`` of the package, the real one and its test
    /// double alike, returns for a validated response. A ``NetworkError`` the request's own
    /// decoding throws passes through; any other error becomes
    /// ``NetworkError/decodingFailed(_:response:)``, carrying the response.
    ///
    /// A body whose type the default check finds mismatched is decoded all the same: if it
    /// decodes, the value is returned; if the library's own decoding fails on it, the send fails
    /// with ``NetworkError/unacceptableContentType(_:)`` instead.
    package func decodedResponse(from response: NetworkResponse, configuration: NetworkConfiguration) throws
        -> Response
    {
        let verdict = ContentTypeValidation.verdict(
            on: response, defaultTypes: acceptableContentTypes, enabledByDefault: configuration.validatesContentType)
        switch verdict {
        case .accepted:
            return try decoded(response, with: configuration.decoder)
        case .refused:
            throw NetworkError.unacceptableContentType(response)
        case .mismatched:
            let witness = BuiltInDecodingWitness()
            do {
                return try BuiltInDecodingWitness.$current.withValue(witness) {
                    try decoded(response, with: configuration.decoder)
                }
            } catch NetworkError.decodingFailed(is DecodingError, _) where witness.sawFailure {
                // The library's JSON decoding failed, and its error reached here: a request's own
                // decoding that recovered from it and threw an error of its own keeps that error.
                throw NetworkError.unacceptableContentType(response)
            }
        }
    }

    /// `response` decoded by the request, its errors wrapped as ``decodedResponse(from:configuration:)``
    /// says.
    private func decoded(_ response: NetworkResponse, with decoder: JSONDecoder) throws -> Response {
        do {
            return try self.response(from: response, with: decoder)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.decodingFailed(error, response: response)
        }
    }
}
