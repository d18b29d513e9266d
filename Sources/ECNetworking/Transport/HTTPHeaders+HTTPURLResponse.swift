import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPHeaders {
    /// The header fields of a response a `URLSession` delivered. Foundation has already joined
    /// repeated names into one value, which is all it keeps. With FoundationNetworking they are
    /// read from the response only when needed (see `unreadResponse`).
    init(_ response: HTTPURLResponse) {
        #if canImport(FoundationNetworking)
            self.init(readingLazily: response)
        #else
            self.init(Self.fields(of: response))
        #endif
    }

    /// The header fields of `response`, sorted by name: Foundation keeps them in a dictionary.
    static func fields(of response: HTTPURLResponse) -> [Field] {
        let allFields = response.allHeaderFields
        var fields: [Field] = []
        // Sized once: appending to an empty array reallocates as it grows, on every response.
        fields.reserveCapacity(allFields.count)
        for (name, value) in allFields {
            // The keys and values are strings in practice; interpolation is only the fallback. The
            // key's base is cast, which is direct, where casting the `AnyHashable` itself unboxes it
            // through the runtime's general path.
            fields.append(Field(name: name.base as? String ?? "\(name)", value: value as? String ?? "\(value)"))
        }
        // A dictionary has no order of its own (on Linux each read is a new one): sorted, the same
        // response gives the same list every time, and two responses with the same fields give
        // equal headers that hash alike. (Its names are unique, so the order is total.)
        fields.sort { $0.name < $1.name }
        return fields
    }
}
