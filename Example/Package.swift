// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ECNetworkingExample",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DemoServer", targets: ["DemoServer"])
    ],
    dependencies: [
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
        .testTarget(
            name: "DemoServerTests",
            dependencies: ["DemoServer"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
