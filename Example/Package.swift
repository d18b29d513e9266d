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
        .package(name: "ECNetworking", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already in Hummingbird's graph; declared because DemoServer imports these modules directly.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        .target(
            name: "DemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
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
        .executableTarget(
            name: "Example",
            dependencies: [
                "DemoClient",
                "DemoServer",
                .product(name: "ECNetworking", package: "ECNetworking"),
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
                "DemoServer",
                "Example",
                .product(name: "ECNetworking", package: "ECNetworking"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
