#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// Resilience.md: over `AsyncHTTPClientTransport` a body that inflates to more than
    /// `maximumDecompressionRatio` (250) times its compressed size is stopped by that guard first,
    /// as `.transport(URLError(.cannotDecodeContentData))`, whatever `maximumResponseSize` is.
    ///
    /// The decoder inflates a whole network read before anything counts its bytes, so the guard
    /// ends the body before the library's size limit sees it, even when that limit is far below the
    /// decoded size.
    @Suite("AsyncHTTPClientTransport's decompression guard stops a bomb before maximumResponseSize does")
    struct DecompressionGuardTests {
        /// A complete gzip member (checksum and size included) of 4 MiB of zeros, 4,098 bytes long:
        /// about 1,000 to 1, past the default ratio of 250, where ``GzipBomb``'s fixed codes reach
        /// only 159 to 1. Made by Python's `gzip.compress(bytes(4 << 20), mtime=0)`, whose deflate
        /// stream is a header, a run of zero bytes and an end; the run is rebuilt here rather than
        /// spelled out.
        private static let fourMebibytesOfZeros: Data = {
            var bytes = hexBytes("1f8b0800000000000203edc101010000008220ffaf6e484001")
            bytes.append(contentsOf: repeatElement(0, count: 4_063))
            bytes.append(contentsOf: hexBytes("7c1b6a40471100004000"))
            return Data(bytes)
        }()

        private static func hexBytes(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                bytes.append(UInt8(text[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }

        @Test(
            "a body past the ratio fails with cannotDecodeContentData, whatever the size limit",
            arguments: [nil, 65_536, TransportTestRoutes.megabyte, 3 * TransportTestRoutes.megabyte])
        func guardBeforeSizeLimit(limit: Int?) async throws {
            let bomb = Self.fourMebibytesOfZeros
            #expect(bomb.count == 4_098)
            let server = try LoopbackHTTPServer { _ in
                .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
            }
            defer { server.stop() }

            // The transport's defaults: a ratio of 250.
            let error = try await withOwnedTransport { transport in
                var configuration = NetworkConfiguration(baseURL: server.baseURL)
                configuration.maximumResponseSize = limit
                let network = URLSessionNetwork(configuration: configuration, transport: transport)
                return await networkError {
                    _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("bomb")))
                }
            }

            #expect(error?.transportCode == .cannotDecodeContentData, "got \(String(describing: error))")
        }
    }
#endif
