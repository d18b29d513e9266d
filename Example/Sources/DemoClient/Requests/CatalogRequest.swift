import DemoServer
import ECNetworking
import Foundation

/// `GET /catalog`: the products. Public, and storable: its answers can be kept in a
/// ``ResponseStore``, served from there, and revalidated with the `ETag` the server sends, which
/// costs a `304` without a body while the catalog has not changed.
///
/// ```swift
/// let store = InMemoryResponseStore()
/// let products = try await client.network.send(CatalogRequest(), storage: store, policy: .storedIfFresh)
/// ```
public struct CatalogRequest: DemoRequest, StorableRequest {
    /// The products, in the order the server added them.
    public typealias Response = [Product]

    /// How long a stored catalog is served by ``StoragePolicy/storedIfFresh`` without asking the server.
    public let maximumStorageAge: Duration

    /// Creates a catalog request whose stored answer stays fresh for `maximumStorageAge`.
    ///
    /// Five seconds by default: the catalog changes while the server runs, so a stored copy should
    /// not be trusted for long, yet a burst of screens showing it should cost one download.
    public init(maximumStorageAge: Duration = .seconds(5)) {
        self.maximumStorageAge = maximumStorageAge
    }

    /// `false`: the catalog is public, so no login stands between the client and its store.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /catalog`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("catalog"))
    }
}
