/// A product as `GET /catalog` lists it.
public struct Product: Codable, Sendable, Equatable, Hashable {
    /// The identifier the server assigned; stable for the lifetime of the server.
    public var id: Int
    /// The display name.
    public var name: String
    /// The price in cents, an integer so that no rounding can creep into a comparison.
    public var priceInCents: Int

    /// Creates a product.
    public init(id: Int, name: String, priceInCents: Int) {
        self.id = id
        self.name = name
        self.priceInCents = priceInCents
    }
}

extension Product {
    /// The catalog every new server starts with.
    public static let seed: [Product] = [
        Product(id: 1, name: "Difference Engine", priceInCents: 120_000),
        Product(id: 2, name: "Compiler Handbook", priceInCents: 4_500),
        Product(id: 3, name: "Shortest Path Map", priceInCents: 900),
    ]
}
