import Foundation

/// The products of one server, kept in memory, and the version and date that change with them.
actor CatalogStore {
    private var products: [Product]
    private var version = 1
    private var lastModified: Date

    init(products: [Product]) {
        self.products = products
        self.lastModified = Self.wholeSeconds(Date())
    }

    /// The catalog now.
    var current: CatalogSnapshot {
        CatalogSnapshot(products: products, version: version, lastModified: lastModified)
    }

    /// Adds a product, which gives the catalog a new version, and so a new `ETag` and `Last-Modified`.
    @discardableResult
    func bump() -> CatalogSnapshot {
        let id = (products.map(\.id).max() ?? 0) + 1
        products.append(Product(id: id, name: "New arrival \(id)", priceInCents: 1_000 * id))
        version += 1
        // An HTTP date holds whole seconds: a change within the second of the previous one would keep
        // its `Last-Modified`, and a client revalidating with `If-Modified-Since` alone would be told
        // that a catalog it has not seen is not modified. A date a second or two ahead when the
        // catalog changes in bursts is the lesser harm.
        lastModified = max(Self.wholeSeconds(Date()), lastModified.addingTimeInterval(1))
        return current
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
