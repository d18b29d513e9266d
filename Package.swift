// swift-tools-version: 6.2
import PackageDescription

// Every integration that needs another package is a trait, off by default, so a package that
// depends on this one and enables none resolves and builds no other package
// (scripts/check-default-dependencies.sh checks that).

/// A product of another package, used only when `trait` is enabled.
func product(_ name: String, of package: String, when trait: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: [trait]))
}

// async-http-client, and the SwiftNIO types its API hands out (ByteBuffer, deadlines, connection and
// TLS errors, the decompression limit); all are its own dependencies, so nothing new is resolved.
let asyncHTTPClient: [Target.Dependency] = [
    product("AsyncHTTPClient", of: "async-http-client", when: "AsyncHTTPClient"),
    product("NIOCore", of: "swift-nio", when: "AsyncHTTPClient"),
    product("NIOHTTP1", of: "swift-nio", when: "AsyncHTTPClient"),
    product("NIOPosix", of: "swift-nio", when: "AsyncHTTPClient"),
    product("NIOHTTPCompression", of: "swift-nio-extras", when: "AsyncHTTPClient"),
    product("NIOSSL", of: "swift-nio-ssl", when: "AsyncHTTPClient"),
]
let observability: [Target.Dependency] = [
    product("Logging", of: "swift-log", when: "Logging"),
    product("Tracing", of: "swift-distributed-tracing", when: "Tracing"),
    product("Metrics", of: "swift-metrics", when: "Metrics"),
]
// swift-openapi-runtime, and the HTTP request and response types its ClientTransport speaks (its own
// dependency, so nothing new is resolved).
let openAPI: [Target.Dependency] = [
    product("OpenAPIRuntime", of: "swift-openapi-runtime", when: "OpenAPI"),
    product("HTTPTypes", of: "swift-http-types", when: "OpenAPI"),
]
// What the tests capture records, spans and metrics with, and the client (and its TLS settings) the
// transport's tests and the README's snippets build for `AsyncHTTPClientTransport(client:)`.
let traitTestDependencies: [Target.Dependency] =
    observability + openAPI + [
        product("InMemoryLogging", of: "swift-log", when: "Logging"),
        product("MetricsTestKit", of: "swift-metrics", when: "Metrics"),
        product("AsyncHTTPClient", of: "async-http-client", when: "AsyncHTTPClient"),
        product("NIOSSL", of: "swift-nio-ssl", when: "AsyncHTTPClient"),
        product("NIOPosix", of: "swift-nio", when: "AsyncHTTPClient"),
    ]

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
            description:
                "Adds AsyncHTTPClientTransport, which sends through swift-server's async-http-client (SwiftNIO)."
        ),
        .trait(name: "Logging", description: "Log events as structured swift-log records through a Logger."),
        .trait(name: "Tracing", description: "A swift-distributed-tracing span per send and per attempt."),
        .trait(name: "Metrics", description: "Request duration, retry and activity metrics through swift-metrics."),
        .trait(
            name: "OpenAPI",
            description: "Adds NetworkClientTransport, which runs swift-openapi-generator clients through a Network."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "ECNetworking", dependencies: asyncHTTPClient + observability + openAPI),
        .target(name: "ECNetworkingTesting", dependencies: ["ECNetworking"]),
        // Helpers every test target shares; not a product, so no user ever sees it.
        .target(name: "TestSupport", dependencies: ["ECNetworking"], path: "Tests/TestSupport"),
        .testTarget(
            name: "ECNetworkingTests",
            dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"] + traitTestDependencies),
        .testTarget(
            name: "ECNetworkingTestingTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
        .testTarget(
            name: "ReadmeTests",
            dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"] + traitTestDependencies),
        // Against nginx and tinyproxy, which scripts/interop.sh starts; skipped without them.
        .testTarget(name: "InteropTests", dependencies: ["ECNetworking", "TestSupport"] + traitTestDependencies),
    ],
    swiftLanguageModes: [.v6]
)
