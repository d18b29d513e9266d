// swift-tools-version: 6.1
import PackageDescription

// A separate package so that the library itself never depends on Hummingbird or the allocation
// counter: only this benchmark executable does.
let package = Package(
    name: "ECNetworkingBenchmarks",
    // Hummingbird needs macOS 14; `Synchronization.Mutex` needs macOS 15.
    platforms: [.macOS(.v15)],
    dependencies: [
        // With the trait, so the `ahc` scenario can measure AsyncHTTPClientTransport.
        .package(name: "ECNetworking", path: "..", traits: ["AsyncHTTPClient"]),
        // The raw client the transport is measured against; the same version the library resolves.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already in Hummingbird's graph; declared because the server imports these modules directly.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // For the TLS rounds of `ahc`: the server's TLS and HTTP/2, its certificate made in memory.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // Counts malloc/calloc/realloc calls by replacing them process-wide (see AllocationCounter.swift).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                .product(name: "ECNetworking", package: "ECNetworking"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
