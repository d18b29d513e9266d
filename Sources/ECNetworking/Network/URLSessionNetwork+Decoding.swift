extension URLSessionNetwork {
    /// Turns a validated response into the request's typed response; see
    /// ``Request/decodedResponse(from:configuration:)``.
    func decode<R: Request>(_ request: R, from response: NetworkResponse) throws -> R.Response {
        try request.decodedResponse(from: response, configuration: configuration)
    }
}

extension Request {
    /// The typed response to `response`, once its `Content-Type` is checked (see
    /// ``ContentTypeValidation``): what every ``Network`` of the package, the real one and its test
    /// double alike, returns for a validated response. A ``NetworkError`` the request's own
    /// decoding throws passes through; any other error becomes
    /// ``NetworkError/decodingFailed(_:response:)``, carrying the response.
    package func decodedResponse(from response: NetworkResponse, configuration: NetworkConfiguration) throws
        -> Response
    {
        try ContentTypeValidation.validate(
            response, defaultTypes: acceptableContentTypes, enabledByDefault: configuration.validatesContentType)
        do {
            return try self.response(from: response, with: configuration.decoder)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.decodingFailed(error, response: response)
        }
    }
}
