extension Duration {
    /// The duration in seconds, with fractions, for Foundation and Dispatch APIs that take
    /// `TimeInterval`. Shared with `ECNetworkingTesting` through `package` access.
    // Divided rather than split into `components`, whose 128-bit division cost every request
    // over a `URLSession` (its timeout is one) some 300 instructions (callgrind).
    package var seconds: Double {
        self / .seconds(1)
    }
}
