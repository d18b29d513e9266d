#if os(Linux)
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// Answers that only a transport's own HTTP parser sees, before the library gets a response:
    /// what each transport does with them, as the Uploads, downloads and streams article lists
    /// among the cells that cannot hold. Two of them stop the process inside the platform's code,
    /// so those cells run in a child process and are expected to die with the platform's message;
    /// should a new FoundationNetworking or async-http-client stop doing so, the test fails and the
    /// article must change.
    @Suite("Transport conformance: answers only the transport's parser sees", .timeLimit(.minutes(2)))
    struct TransportParserLimitsTests {
        static let answerVariable = "ECNETWORKING_PARSER_ANSWER"
        static let transportVariable = "ECNETWORKING_PARSER_TRANSPORT"

        /// The answers, each written as it is on a new connection, which then closes.
        enum Answer: String, CaseIterable, Sendable {
            /// A chunked body of `hello`, then a trailer field.
            case trailer
            /// A status line whose status is `000`.
            case statusZero
            /// A status line whose status is below 100 but not 0 (`042`).
            case statusBelowHundred
            /// Two `Content-Length` fields that disagree (5, then 10) and ten bytes of body.
            case twoLengths
            /// Bytes with no status line (an HTTP/0.9 answer, or no HTTP at all).
            case notHTTP

            var bytes: Data {
                switch self {
                case .trailer:
                    Data(
                        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                            + "5\r\nhello\r\n0\r\nX-Checksum: 5d41402a\r\n\r\n").utf8)
                case .statusZero:
                    Data("HTTP/1.1 000 Zero\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)
                case .statusBelowHundred:
                    Data("HTTP/1.1 042 Odd\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)
                case .twoLengths:
                    Data(
                        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
                            + "helloworld").utf8)
                case .notHTTP:
                    Data("<html>hello</html>\r\n\r\n".utf8)
                }
            }
        }

        /// The fatal error with which `answer` stops the process over `kind`, as the article
        /// says, or `nil` when it does not.
        static func stopMessage(_ answer: Answer, over kind: TransportKind) -> String? {
            switch answer {
            case .trailer: kind.usesURLSession ? "Transfer completed, but there's no response" : nil
            case .statusZero, .statusBelowHundred: kind.usesURLSession ? nil : "if we haven't received a head"
            case .twoLengths, .notHTTP: nil
            }
        }

        /// Sends a GET over `kind` to a server that answers with `answer`.
        static func send(_ answer: Answer, over kind: TransportKind) async throws -> Result<
            NetworkResponse, NetworkError
        > {
            let server = try LoopbackHTTPServer { _ in .raw(answer.bytes) }
            defer { server.stop() }
            return try await kind.withNetwork(baseURL: server.baseURL) { network in
                do {
                    let url = server.baseURL.appendingPathComponent("x")
                    return .success(try await network.send(NetworkRequest(url: url)))
                } catch let error as NetworkError {
                    return .failure(error)
                }
            }
        }

        @Test(
            "a trailer, a status below 100, two Content-Length fields and an answer that is not HTTP end as the article says on each transport",
            arguments: Answer.allCases, TransportKind.allCases)
        func answer(_ answer: Answer, kind: TransportKind) async throws {
            if let message = Self.stopMessage(answer, over: kind) {
                let (reason, output) = try await Self.runInChildProcess(answer, kind)
                #expect(reason == .uncaughtSignal, "\(answer) over \(kind) no longer stops the process")
                #expect(output.contains(message), "\(answer) over \(kind) stopped for another reason: \(output)")
                return
            }
            let result = try await Self.send(answer, over: kind)
            switch (answer, result) {
            case (.trailer, .success(let response)):
                #expect(response.statusCode == 200)
                #expect(response.body == Data("hello".utf8))
            case (.statusZero, .failure(let error)), (.statusBelowHundred, .failure(let error)):
                #expect(error.transportCode == .badServerResponse, "\(error)")
            case (.twoLengths, .failure(let error)):
                // FoundationNetworking joins the two into `5, 10`, which the library refuses
                // (`HTTPURLResponse.hasMalformedContentLength`), as async-http-client does.
                #expect(error.transportCode == .badServerResponse, "\(error)")
            case (.notHTTP, .failure(let error)):
                // The same code over both, and a description that blames the answer.
                #expect(error.transportCode == .badServerResponse, "\(error)")
                #expect(
                    error.localizedDescription.contains("answer could not be read"), "\(error.localizedDescription)")
            default:
                Issue.record("\(answer) over \(kind) ended with \(result)")
            }
        }

        /// One cell that stops the process; it runs only in the child process
        /// ``answer(_:kind:)`` starts.
        @Test(.enabled(if: ProcessInfo.processInfo.environment[answerVariable] != nil, "runs in a child process"))
        func childCell() async throws {
            let environment = ProcessInfo.processInfo.environment
            let answer = try #require(environment[Self.answerVariable].flatMap(Answer.init(rawValue:)))
            let kind = try #require(environment[Self.transportVariable].flatMap(TransportKind.init(rawValue:)))
            _ = try await Self.send(answer, over: kind)
        }

        /// Runs ``childCell()`` for `answer` over `kind` in a child process and returns how it
        /// ended, with what it wrote to its standard error.
        static func runInChildProcess(_ answer: Answer, _ kind: TransportKind) async throws -> (
            reason: Process.TerminationReason, output: String
        ) {
            let child = try await ChildTestProcess.run(
                test: "TransportParserLimitsTests/childCell",
                environment: [
                    answerVariable: answer.rawValue, transportVariable: kind.rawValue,
                    // The backtrace of the child's expected stop is of no use here.
                    "SWIFT_BACKTRACE": "enable=no",
                ],
                timeout: .seconds(60))
            return (child.reason, child.standardError)
        }
    }
#endif
