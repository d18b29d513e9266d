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
        .testTarget(name: "ECNetworkingTests", dependencies: ["ECNetworking", "ECNetworkingTesting"]),
        .testTarget(name: "ECNetworkingTestingTests", dependencies: ["ECNetworking", "ECNetworkingTesting"]),
        .testTarget(name: "ReadmeTests", dependencies: ["ECNetworking", "ECNetworkingTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
