// swift-tools-version: 6.1
import PackageDescription

// The integrations with the ecosystem's logging, tracing and metrics APIs are traits, each off by
// default, so a package that depends on this one and enables none resolves no dependency at all.
let logging = Target.Dependency.product(
    name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"]))
let tracing = Target.Dependency.product(
    name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"]))
let metrics = Target.Dependency.product(
    name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"]))
// What the tests of the integrations capture records, spans and metrics with.
let integrationTestDependencies: [Target.Dependency] = [
    logging, tracing, metrics,
    .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
    .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
]

let package = Package(
    name: "ECNetworking",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ECNetworking", targets: ["ECNetworking"]),
        .library(name: "ECNetworkingTesting", targets: ["ECNetworkingTesting"]),
    ],
    traits: [
        .trait(name: "Logging", description: "Log events as structured swift-log records through a Logger."),
        .trait(name: "Tracing", description: "A swift-distributed-tracing span per send and per attempt."),
        .trait(name: "Metrics", description: "Request duration, retry and activity metrics through swift-metrics."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(name: "ECNetworking", dependencies: [logging, tracing, metrics]),
        .target(name: "ECNetworkingTesting", dependencies: ["ECNetworking"]),
        // Helpers every test target shares; not a product, so no user ever sees it.
        .target(name: "TestSupport", dependencies: ["ECNetworking"], path: "Tests/TestSupport"),
        .testTarget(
            name: "ECNetworkingTests",
            dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"] + integrationTestDependencies),
        .testTarget(
            name: "ECNetworkingTestingTests", dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"]),
        .testTarget(
            name: "ReadmeTests",
            dependencies: ["ECNetworking", "ECNetworkingTesting", "TestSupport"] + integrationTestDependencies),
    ],
    swiftLanguageModes: [.v6]
)
