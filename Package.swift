// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ECNetworking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ECNetworking", targets: ["ECNetworking"]),
        .library(name: "ECNetworkingTesting", targets: ["ECNetworkingTesting"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: """
                Adds AsyncHTTPClientTransport, which sends through swift-server's async-http-client \
                (SwiftNIO) instead of URLSession. Off by default, so that a package using ECNetworking \
                resolves and builds no other package unless it asks for this one.
                """),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Resolved and built only when a package enables the trait; see scripts/check-default-dependencies.sh.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The transport names SwiftNIO's types (ByteBuffer, deadlines, connection and TLS errors) that
        // async-http-client's API hands out; its own dependencies, so nothing new is resolved.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    ],
    targets: [
        .target(
            name: "ECNetworking",
            dependencies: [
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras",
                    condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClient"])),
            ]),
        .target(name: "ECNetworkingTesting", dependencies: ["ECNetworking"]),
        // Helpers every test target shares; not a product, so no user ever sees it.
        .target(name: "TestSupport", dependencies: ["ECNetworking"], path: "Tests/TestSupport"),
        .testTarget(
            name: "ECNetworkingTests",
            dependencies: [
                "ECNetworking", "ECNetworkingTesting", "TestSupport",
                // The transport's tests build their own `HTTPClient` for `init(client:)`.
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])),
            ]),
        .testTarget(
            name: "ECNetworkingTestingTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
        .testTarget(
            name: "ReadmeTests",
            dependencies: [
                "ECNetworking", "ECNetworkingTesting", "TestSupport",
                // The README's AsyncHTTPClient snippets create an `HTTPClient`.
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["AsyncHTTPClient"])),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
