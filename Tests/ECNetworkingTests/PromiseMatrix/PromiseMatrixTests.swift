import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's promises, each checked over every way to send (``SendWay``) and every transport
/// (``TransportKind``: URLSession and AsyncHTTPClient, each also reduced to the streaming seam a
/// user's own transport has), against a real server on 127.0.0.1 (``MatrixServer``). The test
/// doubles have their own rows in PromiseMatrixDoublesTests.swift, the memory column is
/// PromiseMatrixMemoryTests.swift, and the cells that cannot hold are listed in the Uploads,
/// downloads and streams article's "What every way to send promises".
@Suite("Promise matrix: every promise over every way to send and every transport", .timeLimit(.minutes(2)))
struct PromiseMatrixTests {
    /// A send of `way` to `route` over a new network of `kind`, with every observer on: the
    /// outcome (or the error), and the observers.
    private func observedSend(
        _ way: SendWay, _ kind: TransportKind, route: MatrixServer.Route, server: MatrixServer, folder: ScratchFolder
    ) async throws -> (Result<SendOutcome, any Error>, MatrixObservers) {
        let observers = MatrixObservers()
        let result = try await kind.withNetwork(baseURL: server.server.baseURL, configure: observers.observe) {
            network in
            network.add(action: observers.failureAction)
            // A first send stores the server's cookie, so the second carries it in a `Cookie` header.
            _ = try? await way.run(server.request(.ok), through: network, folder: folder.url)
            do {
                return Result<SendOutcome, any Error>.success(
                    try await way.run(
                        server.request(route), through: network, bodySecret: MatrixSecrets.bodyPassword,
                        folder: folder.url))
            } catch {
                return Result<SendOutcome, any Error>.failure(error)
            }
        }
        return (result, observers)
    }

    @Test(
        "no planted secret shows in a log or cURL line, the metrics hook, a failure action, a span, a metric dimension, a HAR archive or an error",
        arguments: SendWay.allCases, TransportKind.allCases)
    func noSecretShows(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        for route in [MatrixServer.Route.ok, .fail, .token] {
            let (result, observers) = try await observedSend(way, kind, route: route, server: server, folder: folder)
            var seen = observers.everything
            if case .failure(let error) = result { seen += renderings(of: error).values.joined(separator: "\n") }
            #expect(
                MatrixSecrets.shown(in: seen).isEmpty,
                "\(way) to /\(route.rawValue) showed \(MatrixSecrets.shown(in: seen))")
            // The check can fail: the log did show the request, with its (redacted) credentials, and
            // so did the HAR archive.
            #expect(seen.contains("Authorization"), "\(way) to /\(route.rawValue) logged no request")
            let archived = String(decoding: try observers.archive.archive.encoded(), as: UTF8.self)
            #expect(archived.contains("Authorization"), "\(way) to /\(route.rawValue) recorded no request")
            if route == .token {
                // The body was recorded, streamed or not, with its token redacted.
                let bodies = observers.archive.archive.log.entries.compactMap(\.response.content.text)
                #expect(
                    bodies.contains { $0.contains(#""access_token":"<redacted>""#) },
                    "\(way) recorded no body with its token redacted: \(bodies)")
            }
        }
    }

    @Test(
        "every send ends exactly once: one result for the caller, one call of the metrics hook, and one of the failure actions exactly when it failed",
        arguments: SendWay.allCases, TransportKind.allCases)
    func endsExactlyOnce(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        for route in [MatrixServer.Route.ok, .fail] {
            let observers = MatrixObservers()
            let results = Log<String>()
            try await kind.withNetwork(baseURL: server.server.baseURL, configure: observers.observe) { network in
                network.add(action: observers.failureAction)
                do {
                    let outcome = try await way.run(server.request(route), through: network, folder: folder.url)
                    results.append("status \(outcome.status)")
                } catch {
                    results.append("error \(error)")
                }
            }
            // Give a late second end time to show up.
            try await Task.sleep(for: .milliseconds(50))
            let fails = route == .fail
            expectOneEnd(results.all, of: way, to: route, failureCalls: observers.failures.all.count)
            #expect(
                observers.metrics.all.count == 1,
                "\(way) to /\(route.rawValue): \(observers.metrics.all.count) metrics calls")
            #expect((observers.metrics.all.first?.error != nil) == fails)
        }
    }

    @Test(
        "cancelling one send ends it with NetworkError.cancelled and leaves the others of its network alone",
        arguments: SendWay.allCases, TransportKind.allCases)
    func cancellationIsScopedToTheSend(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let sibling = Task { try await way.run(server.request(.gated), through: network, folder: folder.url) }
            let victim = Task { try await way.run(server.request(.silent), through: network, folder: folder.url) }
            try await waitUntil { server.server.requests.count >= 2 }
            victim.cancel()
            expectCancelled(await victim.result, of: way)
            // The victim's send ended, whatever its caller saw: only the sibling is in progress.
            try await waitUntil { network.activeRequestCount == 1 }

            server.openGate()
            let outcome = try await sibling.value
            #expect(outcome.status == 200)
            #expect(outcome.body == Data((way == .serverSentEvents ? "one" : #"{"ok":true}"#).utf8))
        }
    }

    @Test(
        "a peer that answers garbage, cuts the body off or is gone gets a typed error, never a crash, a hang or a success",
        arguments: SendWay.allCases, TransportKind.allCases)
    func badPeersGetTypedErrors(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            for route in [MatrixServer.Route.garbage, .truncated] {
                do {
                    let outcome = try await way.run(server.request(route), through: network, folder: folder.url)
                    Issue.record("\(way) to /\(route.rawValue) succeeded with status \(outcome.status)")
                } catch {
                    let error = SendWay.sendError(error)
                    #expect(error is NetworkError, "\(way) to /\(route.rawValue) threw \(type(of: error)): \(error)")
                    if case NetworkError.cancelled = error {
                        Issue.record("\(way): cancelled, though nobody cancelled")
                    }
                }
            }
        }
        // A port nothing listens on.
        let gone = try ClosedPort()
        try await kind.withNetwork(baseURL: gone.baseURL) { network in
            var request = server.request(.ok)
            request.url = gone.baseURL.appendingPathComponent("ok")
            do {
                try await way.run(request, through: network, folder: folder.url)
                Issue.record("\(way) to a closed port succeeded")
            } catch {
                #expect(SendWay.sendError(error) is NetworkError, "\(way) to a closed port threw \(error)")
            }
        }
    }

    @Test(
        "interim answers (103 Early Hints, 100 Continue) before the final one are skipped: the final status and body arrive",
        arguments: SendWay.allCases, TransportKind.allCases)
    func interimAnswersSkipped(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        let outcome = try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            try await way.run(server.request(.interim), through: network, folder: folder.url)
        }
        #expect(outcome.status == 200, "\(way)")
        let expected = way == .serverSentEvents ? "one" : #"{"ok":true}"#
        #expect(String(decoding: outcome.body, as: UTF8.self) == expected, "\(way)")
    }

    @Test(
        "a request the server read and never answered ends with a typed error; an upload (a POST) says the server may have it and goes once",
        arguments: SendWay.allCases, TransportKind.allCases)
    func unansweredRequest(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        let failure = try await kind.withNetwork(baseURL: server.server.baseURL) { network -> (any Error)? in
            do {
                let outcome = try await way.run(server.request(.unanswered), through: network, folder: folder.url)
                Issue.record("\(way) to a server that never answered succeeded with status \(outcome.status)")
                return nil
            } catch {
                return SendWay.sendError(error)
            }
        }
        guard let failure else { return }
        let error = try #require(failure as? NetworkError, "\(way) threw \(type(of: failure)): \(failure)")
        #expect(error.requestMayHaveBeenSent == way.uploads, "\(way): \(error)")
        if way.uploads {
            // Not sent again: a second copy could apply it twice.
            try await Task.sleep(for: .milliseconds(100))
            let count = server.server.requests.count
            #expect(count == 1, "\(way) reached the server \(count) times")
        }
    }

    @Test(
        "a download or a failed send leaves no file behind but the one asked for (or a resume's partial file), each private (0600)",
        arguments: SendWay.allCases, TransportKind.allCases)
    func filesArePrivateAndCleanedUp(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            for route in [MatrixServer.Route.ok, .fail, .truncated] {
                let before = Set(folder.files().map(\.name))
                _ = try? await way.run(server.request(route), through: network, folder: folder.url)
                let new = folder.files().filter {
                    !before.contains($0.name) && !$0.name.hasPrefix("upload-") && !$0.name.hasPrefix("photo-")
                }
                // A resumed download keeps its partial file when the server fails it, for a later
                // resume: hidden, named as the library names them, and private like the rest.
                let kept = new.filter {
                    way == .resumedDownload && $0.name.hasPrefix(".")
                        && ($0.name.hasSuffix(".download") || $0.name.hasSuffix(".partial"))
                }
                for file in kept {
                    let attributes = try FileManager.default.attributesOfItem(
                        atPath: folder.url.appendingPathComponent(file.name).path)
                    #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file.name) is not 0600")
                }
                let added = new.filter { file in !kept.contains { $0.name == file.name } }
                if (way == .download || way == .resumedDownload) && route == .ok {
                    #expect(added.count == 1, "\(added.map(\.name))")
                    for file in added {
                        let attributes = try FileManager.default.attributesOfItem(
                            atPath: folder.url.appendingPathComponent(file.name).path)
                        #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file.name) is not 0600")
                    }
                } else {
                    #expect(added.isEmpty, "\(way) to /\(route.rawValue) left \(added.map(\.name))")
                }
            }
        }
    }

    @Test(
        "a network's cookies never reach another network's requests, and a Cookie header the request sets is kept",
        arguments: SendWay.allCases, TransportKind.allCases)
    func cookiesStayInTheirNetwork(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        try await kind.withTransport { transport in
            let configuration = NetworkConfiguration(baseURL: server.server.baseURL)
            let alice = URLSessionNetwork(configuration: configuration, transport: transport)
            let bob = URLSessionNetwork(configuration: configuration, transport: transport)
            _ = try await way.run(server.request(.ok), through: alice, folder: folder.url)
            var own = server.request(.ok)
            own.headers["Cookie"] = "mine=bob"
            _ = try await way.run(own, through: bob, folder: folder.url)
            _ = try await way.run(server.request(.ok), through: alice, folder: folder.url)

            let cookies = server.server.requests.map { $0.header("Cookie") }
            #expect(cookies.count == 3)
            #expect(
                cookies.dropFirst().first == "mine=bob",
                "bob's request carried \(String(describing: cookies.dropFirst().first))")
            #expect(cookies.last == "session=\(MatrixSecrets.cookie)", "alice's own cookie did not come back")
        }
    }
}

extension SendWay {
    /// Whether this is the generated client's way, which gets every status as a response.
    var isOpenAPI: Bool { rawValue == "openAPI" }
}

@Suite("Promise matrix: a request body that fails", .timeLimit(.minutes(1)))
struct PromiseMatrixRequestBodyTests {
    private struct StreamBroke: Error {}

    @Test(
        "a stream body that throws fails the send with requestBodyFailed carrying the stream's error, on every transport",
        arguments: TransportKind.allCases)
    func throwingStreamBody(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data(#"{"name":"#.utf8))
                continuation.finish(throwing: StreamBroke())
            }
            var request = server.request(.ok)
            request.method = .post
            request.body = .stream(chunks, contentType: "application/json")
            do {
                _ = try await network.send(request)
                Issue.record("the send succeeded though its body's stream threw")
            } catch NetworkError.requestBodyFailed(let error) {
                #expect(error is StreamBroke, "requestBodyFailed carries \(error)")
            } catch {
                Issue.record("expected requestBodyFailed, got \(error)")
            }
        }
    }
}
