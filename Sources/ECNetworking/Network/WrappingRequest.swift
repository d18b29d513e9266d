/// A request the library makes around the caller's own to send it another way (streamed, as an
/// event stream), which a test double answers as it would answer the caller's request: a user
/// stubs the request type they send, never the library's private wrapper.
package protocol WrappingRequest: Request {
    /// The caller's request inside, unwrapped all the way down.
    var wrappedRequest: any Request { get }
}

extension WrappingRequest {
    /// `base`, or what it wraps when it is a wrapper too.
    package static func unwrapped(_ base: any Request) -> any Request {
        (base as? any WrappingRequest)?.wrappedRequest ?? base
    }
}
