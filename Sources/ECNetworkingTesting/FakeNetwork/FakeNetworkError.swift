import Foundation

/// Why a ``FakeNetwork`` could not answer: a send it has no stub for fails loudly rather than
/// succeeding with a made-up value.
public enum FakeNetworkError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// No stub was added for this request type; the name is the type's, such as `"ListUsersRequest"`.
    case noStub(requestType: String)
    /// A raw `NetworkRequest` was sent but no raw stub was added; carries the method and URL,
    /// with token parameters and userinfo redacted as in every description of the library.
    case noNetworkRequestStub(method: String, url: String)

    /// A sentence that says what to stub.
    public var description: String {
        switch self {
        case .noStub(let requestType):
            "FakeNetwork has no stub for \(requestType); call stub(\(requestType).self, …) before sending it"
        case .noNetworkRequestStub(let method, let url):
            "FakeNetwork has no stub for the raw request \(method) \(url); call stubNetworkRequests(…) first"
        }
    }

    /// The same sentence as ``description``, so `localizedDescription` names the request too.
    public var errorDescription: String? { description }
}
