#if Logging
    import ECNetworking
    import ECNetworkingTesting
    import Foundation
    import InMemoryLogging
    import Logging
    import TestSupport
    import Testing

    /// A logger at `debug` whose records `handler` keeps.
    private func makeLogger(_ handler: InMemoryLogHandler) -> Logger {
        var logger = Logger(label: "api") { _ in handler }
        logger.logLevel = .debug
        return logger
    }

    @Suite("Logging trait: swift-log records")
    struct SwiftLogIntegrationTests {
        @Test("requests are debug records and answers info, with the send id, attempt, method, URL, status, duration")
        func recordsWithMetadata() async throws {
            let handler = InMemoryLogHandler()
            let (network, _) = makeStubbedNetwork(answering: MockResponse(statusCode: 200)) {
                $0.logging = true
                $0.logSink = .logger(makeLogger(handler))
            }

            _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("users")))

            let entries = handler.entries
            #expect(entries.map(\.level) == [.debug, .info])
            let request = try #require(entries.first)
            let response = try #require(entries.last)
            #expect(request.message.description == "--> GET https://api.example.com/v1/users")
            #expect(request.metadata["http.request.method"] == "GET")
            #expect(request.metadata["url.full"] == "https://api.example.com/v1/users")
            #expect(request.metadata["send.attempt"] == "1")
            #expect(request.metadata["send.id"] != nil)
            #expect(request.metadata["send.id"] == response.metadata["send.id"])
            #expect(response.metadata["http.response.status_code"] == "200")
            #expect(response.metadata["duration_ms"] != nil)
            // The header and cURL lines travel as metadata, not in the message.
            guard case .array(let details)? = request.metadata["details"] else {
                Issue.record("no details on the request record")
                return
            }
            #expect(details.contains { "\($0)".contains("curl") })
        }

        @Test("a transport failure is an error record, and the logger's own level filters the rest")
        func failureLevelAndLoggerLevel() async throws {
            let handler = InMemoryLogHandler()
            var logger = makeLogger(handler)
            logger.logLevel = .warning
            let (network, _) = makeStubbedNetwork(answering: .failure(.notConnectedToInternet)) {
                $0.logging = true
                $0.logSink = .logger(logger)
            }

            await #expect(throws: NetworkError.self) {
                _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("users")))
            }

            #expect(handler.entries.map(\.level) == [.error])
            #expect(handler.entries.first?.message.description.hasPrefix("<-- failed GET https://") == true)
        }

        @Test("an entry below the logger's level is not built: the level is asked first, for each entry")
        func levelAskedBeforeBuilding() async throws {
            let handler = LevelCountingHandler(level: .warning)
            let (network, _) = makeStubbedNetwork(answering: MockResponse(statusCode: 200)) {
                $0.logging = true
                $0.logSink = .logger(Logger(label: "api") { _ in handler })
            }
            let request = NetworkRequest(url: testBaseURL.appendingPathComponent("users"))

            _ = try await network.send(request)
            #expect(handler.records.all.isEmpty)
            #expect(handler.levelReads.count >= 2, "the request and answer entries asked the level")

            // A level changed later takes effect for the next entries.
            handler.level.withLock { $0 = .debug }
            _ = try await network.send(request)
            #expect(handler.records.all == [.debug, .info])
        }

        @Test("no planted secret is in any record's message or metadata")
        func noSecretInRecords() async throws {
            let handler = InMemoryLogHandler()
            let (network, _) = makeStubbedNetwork(
                answering: MockResponse(
                    statusCode: 401, data: Data(Planted.responseBody.utf8),
                    headers: ["Content-Type": "application/json", "Set-Cookie": "id=\(Planted.responseCookie)"])
            ) {
                $0.logging = true
                $0.logSink = .logger(makeLogger(handler))
                $0.sensitiveData.headers.insert("X-Tenant-Handle")
            }

            await #expect(throws: NetworkError.self) { _ = try await network.send(Planted.request) }

            var texts: [String: String] = [:]
            for (index, entry) in handler.entries.enumerated() {
                texts["record \(index) message"] = entry.message.description
                for (key, value) in entry.metadata { texts["record \(index) \(key)"] = "\(value)" }
            }
            #expect(handler.entries.map(\.level) == [.debug, .warning, .error])
            expectNoSecrets(in: texts, Planted.all)
        }
    }

    /// A log handler whose level can change after the logger is made, counting how often its level
    /// is read and which levels it records.
    private final class LevelCountingHandler: LogHandler, Sendable {
        let level: LockedState<Logger.Level>
        let levelReads = Counter()
        let records = Log<Logger.Level>()

        init(level: Logger.Level) {
            self.level = LockedState(level)
        }

        var logLevel: Logger.Level {
            get {
                levelReads.increment()
                return level.withLock { $0 }
            }
            set { level.withLock { $0 = newValue } }
        }

        var metadata: Logger.Metadata {
            get { [:] }
            set {}
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { nil }
            set {}
        }

        func log(event: LogEvent) {
            records.append(event.level)
        }
    }
#endif
