extension StoredResponse {
    /// Whether this entry may answer `request`: every request header its `Vary` names has the
    /// values it had when the entry was stored. Credential headers are left out of the comparison,
    /// since an entry is only ever read in the partition of the identity it was stored for.
    func matchesVariedHeaders(of request: NetworkRequest, sensitiveData: SensitiveData) -> Bool {
        let cacheControl = CacheControl(headers)
        guard !cacheControl.variesOnEverything else { return false }
        let sensitiveHeaders = sensitiveData.headerNames
        return cacheControl.variedHeaderNames.allSatisfy { name in
            sensitiveHeaders.matches(name)
                || request.headers.values(for: name) == variedRequestHeaders.values(for: name)
        }
    }

    /// The headers of `request` (as sent) that `Vary` names, credential headers left out so that
    /// no secret is stored.
    static func variedHeaders(
        of request: NetworkRequest,
        cacheControl: CacheControl,
        sensitiveData: SensitiveData
    ) -> HTTPHeaders {
        var varied = HTTPHeaders()
        let sensitiveHeaders = sensitiveData.headerNames
        for name in cacheControl.variedHeaderNames where !sensitiveHeaders.matches(name) {
            for value in request.headers.values(for: name) {
                varied.add(name: name, value: value)
            }
        }
        return varied
    }
}
