extension URLSessionNetwork {
    /// Turns a validated response into the request's typed response, once its `Content-Type` is
    /// checked (see ``ContentTypeValidation``). A ``NetworkError`` the
    /// request throws passes through; anything else becomes
    /// ``NetworkError/decodingFailed(_:response:)``, which carries the response.
    func decode<R: Request>(_ request: R, from response: NetworkResponse) throws -> R.Response {
        try ContentTypeValidation.validate(
            response, defaultTypes: request.acceptableContentTypes,
            enabledByDefault: configuration.validatesContentType)
        do {
            return try request.response(from: response, with: configuration.decoder)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.decodingFailed(error, response: response)
        }
    }
}
