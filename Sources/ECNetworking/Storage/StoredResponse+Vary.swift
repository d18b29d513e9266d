extension StoredResponse {
    /// Whether this entry may answer `request`: every request header its `Vary` names has the
    /// values it had when the entry was stored. A credential header is compared by its digest,
    /// which is all the entry keeps of it (see ``variedHeaders(of:cacheControl:sensitiveData:)``);
    /// one the request does not carry yet, since an action adds it after the store is read, is
    /// left to the partition, which stands for the identity the action signs as.
    func matchesVariedHeaders(of request: NetworkRequest, sensitiveData: SensitiveData) -> Bool {
        let cacheControl = CacheControl(headers)
        guard !cacheControl.variesOnEverything else { return false }
        let sensitiveHeaders = sensitiveData.headerNames
        return cacheControl.variedHeaderNames.allSatisfy { name in
            let values = request.headers.values(for: name)
            guard sensitiveHeaders.matches(name) else { return values == variedRequestHeaders.values(for: name) }
            return values.isEmpty
                || values.map(Self.digest(ofCredential:)) == variedRequestHeaders.values(for: name)
        }
    }

    /// The headers of `request` (as sent) that `Vary` names, a credential header's values as
    /// their digests, so that no secret is stored.
    ///
    /// A partition may hold several users (a tenant's), each with a credential of their own; a
    /// server that varies its answer on `Authorization`, a cookie or an API key says that one
    /// user's answer is not another's, and the digest keeps them apart where leaving the header
    /// out answered every user of the partition with the first one's entry.
    static func variedHeaders(
        of request: NetworkRequest,
        cacheControl: CacheControl,
        sensitiveData: SensitiveData
    ) -> HTTPHeaders {
        var varied = HTTPHeaders()
        let sensitiveHeaders = sensitiveData.headerNames
        for name in cacheControl.variedHeaderNames {
            let isCredential = sensitiveHeaders.matches(name)
            for value in request.headers.values(for: name) {
                varied.add(name: name, value: isCredential ? digest(ofCredential: value) : value)
            }
        }
        return varied
    }

    /// What an entry keeps of a credential header's value: the first 16 bytes of its SHA-256, in
    /// hexadecimal, marked so that no value could be mistaken for one.
    static func digest(ofCredential value: String) -> String {
        "sha256:" + SHA256.hexadecimalHash(value, byteCount: 16)
    }
}
