import Foundation

/// The catalog as it stands at one moment, with the validators `GET /catalog` sends for it.
struct CatalogSnapshot: Sendable {
    /// The products, in the order they were added.
    let products: [Product]
    /// Counts the changes since the server started, from 1; the `ETag` is made from it.
    let version: Int
    /// When the catalog last changed, in whole seconds because that is all an HTTP date holds.
    let lastModified: Date

    /// The strong `ETag`, quotes included, such as `"catalog-v1"`. The version alone identifies the
    /// bytes because the JSON encoder sorts keys, so the same version always has the same body.
    var entityTag: String {
        "\"catalog-v\(version)\""
    }
}
