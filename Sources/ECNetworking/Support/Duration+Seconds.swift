extension Duration {
    /// The duration in seconds, with fractions, for Foundation and Dispatch APIs that take
    /// `TimeInterval`. Shared with `ECNetworkingTesting` through `package` access.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
