// swift-tools-version: 6.2
// 6.2 because DemoClient holds its network in a `weak let` (SE-0481), which older compilers reject.
import PackageDescription

let package = Package(
    name: "ECNetworkingExample",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DemoServer", targets: ["DemoServer"]),
        .library(name: "DemoClient", targets: ["DemoClient"]),
        .executable(name: "Example", targets: ["Example"]),
    ],
    dependencies: [
        // The library itself, from this checkout: the Example always runs against the code beside it.
        // With the four integrations the tour shows: swift-log records, trace ids, metrics and a
        // generated OpenAPI client.
        // With AsyncHTTPClient too, for the HTTPS step: the transport that takes a TLSPolicy on Linux.
        .package(
            name: "ECNetworking", path: "..", traits: ["Logging", "Tracing", "Metrics", "OpenAPI", "AsyncHTTPClient"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already in Hummingbird's graph; declared because DemoServer imports these modules directly.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // Already in the library's graph with its traits on; declared because the Example imports them.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // For the HTTPS step: the server's TLS, and its certificates made in memory.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "DemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The demo API as typed requests, plus the authentication, retry and tracing set-up around them.
        // It uses DemoServer only for the wire models (User, Token, APIError…), so the two cannot drift apart.
        .target(
            name: "DemoClient",
            dependencies: [
                "DemoServer",
                .product(name: "ECNetworking", package: "ECNetworking"),
            ]
        ),
        // The client swift-openapi-generator made from Sources/DemoOpenAPI/openapi.yaml, committed as
        // source (see the folder's README for the command).
        .target(
            name: "DemoOpenAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "README.md"],
            // The generator marks its imports `public` and silences the resulting "not used in public
            // declarations" warnings only from Swift 6.4 on; its code is not ours to change.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
        .executableTarget(
            name: "Example",
            dependencies: [
                "DemoClient",
                "DemoOpenAPI",
                "DemoServer",
                .product(name: "ECNetworking", package: "ECNetworking"),
                // For the tour's last step, which replays a recorded session through FakeNetwork.
                .product(name: "ECNetworkingTesting", package: "ECNetworking"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "DemoServerTests",
            dependencies: ["DemoServer"]
        ),
        .testTarget(
            name: "ExampleTests",
            dependencies: [
                "DemoClient",
                "DemoOpenAPI",
                "DemoServer",
                "Example",
                .product(name: "ECNetworking", package: "ECNetworking"),
                .product(name: "ECNetworkingTesting", package: "ECNetworking"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
