import Foundation

/// A ``Request`` whose responses may be kept in a ``ResponseStore``, so that
/// ``HTTPNetwork/send(_:storage:policy:priority:)`` can answer it from the store, revalidate
/// it, or serve it when the network fails.
///
/// ```swift
/// struct ListUsersRequest: StorableRequest {
///     typealias Response = [User]
///     var maximumStorageAge: Duration { .seconds(60) }
///     func buildRequest(with baseURL: URL) -> NetworkRequest {
///         NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
///     }
/// }
/// let users = try await network.send(ListUsersRequest(), storage: store, policy: .storedIfFresh)
/// ```
public protocol StorableRequest: Request {
    /// The key the response is stored under. Two requests with the same key share one entry, so
    /// it must name everything the response depends on, except who asks: the request's
    /// ``StoragePartition`` is added in front of the key, and the headers a response's `Vary`
    /// names are compared separately.
    ///
    /// It is a function of the built request, rather than a property, because the default key
    /// depends on the URL, which only exists once the configuration's base URL is known.
    /// The default is the method, the URL with its query, and the `Accept` header; the values of
    /// credential query parameters (`access_token`, `api_key` and the other names logging
    /// redacts) are replaced by `<redacted>`, so that secrets never reach a key. Keep it that way
    /// in your own keys: a ``ResponseStore`` may write its keys anywhere.
    ///
    /// - Parameter request: the request as ``Request/buildRequest(with:)`` built it, with the
    ///   configuration's default headers added, before any action ran.
    func storageKey(for request: NetworkRequest) -> String

    /// How long a stored response counts as fresh for ``StoragePolicy/storedIfFresh``; five
    /// minutes by default.
    var maximumStorageAge: Duration { get }
}

extension StorableRequest {
    /// The method, the URL with its query (credential values redacted), and the `Accept` header,
    /// which together name the representation a plain GET returns.
    public func storageKey(for request: NetworkRequest) -> String {
        let url = (try? request.urlWithQuery()) ?? request.url
        // A credential in the query identifies the user, which the partition already does.
        var key = request.method.rawValue + " " + Redaction.default.url(url)
        if let accept = request.headers["Accept"] {
            key += " Accept: " + accept
        }
        return key
    }

    /// Five minutes.
    public var maximumStorageAge: Duration { .seconds(300) }
}
