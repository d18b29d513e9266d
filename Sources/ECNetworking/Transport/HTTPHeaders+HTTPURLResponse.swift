import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPHeaders {
    /// The header fields of a response a `URLSession` delivered. Foundation has already joined
    /// repeated names into one value, which is all it keeps.
    init(_ response: HTTPURLResponse) {
        self.init()
        for (name, value) in response.allHeaderFields {
            // The keys and values are strings in practice; interpolation is only the fallback.
            add(name: name as? String ?? "\(name)", value: value as? String ?? "\(value)")
        }
    }
}
