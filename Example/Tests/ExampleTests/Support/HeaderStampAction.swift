import ECNetworking

/// A will-begin action that sets one header, to see what will-begin actions add arrive at the server.
struct HeaderStampAction: RequestWillBeginAction {
    let name: String
    let value: String

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers[name] = value
        return request
    }
}
