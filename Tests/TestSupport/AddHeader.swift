import ECNetworking

/// A will-begin action that adds a header, keeping any others of the same name.
public struct AddHeader: RequestWillBeginAction {
    let name: String
    let value: String

    /// Creates an action that adds `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Adds the header.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers.add(name: name, value: value)
        return request
    }
}
