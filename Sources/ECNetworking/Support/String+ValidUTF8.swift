extension String {
    /// `bytes` as a string when they are valid UTF-8, `nil` otherwise: the check
    /// `String(validating:as:)` makes, which Apple platforms have only from macOS 15 and iOS 18,
    /// above this package's deployment targets.
    init?(validUTF8 bytes: some Collection<UInt8>) {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput:
                self.init(decoding: bytes, as: UTF8.self)
                return
            case .error: return nil
            }
        }
    }
}
