// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ECNetworkingExample",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DemoServer", targets: ["DemoServer"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1")
    ],
    targets: [
        .target(
            name: "DemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird")
            ]
        ),
        .testTarget(
            name: "DemoServerTests",
            dependencies: ["DemoServer"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
