// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ECNetworking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ECNetworking", targets: ["ECNetworking"]),
        .library(name: "ECNetworkingTesting", targets: ["ECNetworkingTesting"]),
    ],
    targets: [
        .target(name: "ECNetworking"),
        .target(name: "ECNetworkingTesting", dependencies: ["ECNetworking"]),
        // Helpers every test target shares; not a product, so no user ever sees it.
        .target(name: "TestSupport", dependencies: ["ECNetworking"], path: "Tests/TestSupport"),
        .testTarget(name: "ECNetworkingTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
        .testTarget(
            name: "ECNetworkingTestingTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
        .testTarget(name: "ReadmeTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
