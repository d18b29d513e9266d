import DemoClient
import DemoOpenAPI
import DemoServer
import ECNetworking
import ECNetworkingTesting
import Foundation
import InMemoryTracing
import Logging
import Tracing

/// The walk through the library that `swift run Example` prints: one method per step, each showing
/// the action stages of its requests and the typed results, and each throwing ``TourFailure`` when
/// the library does not behave as it promises.
struct Tour {
    /// The server the tour talks to.
    let baseURL: URL
    /// The embedded server's recorder, for its side of the story (login and catalog counts); `nil` when the
    /// tour runs against another server.
    private let recorder: RequestRecorder?
    let console: TourConsole
    private let isVerbose: Bool
    /// Every stage of every request, for the checks that depend on order and timing.
    let events = StageEventLog()
    /// Every span of every send; in-process, since there is no exporter here.
    private let tracer = InMemoryTracer(idGenerator: .hexadecimal)
    /// Every duration the library measured, through swift-metrics.
    private let metrics = TourMetrics()
    /// What every client of the tour sends through and how it is recorded.
    private let wiring: ClientWiring
    let client: DemoClient

    /// Creates a tour of the API at `baseURL`, writing to `console`; `isVerbose` adds the library's
    /// log, and `archiveRecorder` records every request the tour's clients send (`--record-har`).
    init(
        baseURL: URL, recorder: RequestRecorder?, console: TourConsole = .standardOutput, isVerbose: Bool = false,
        archiveRecorder: HTTPArchiveRecorder? = nil
    ) {
        self.init(
            baseURL: baseURL, recorder: recorder, console: console, isVerbose: isVerbose,
            wiring: ClientWiring(archiveRecorder: archiveRecorder, replay: nil))
    }

    /// Creates a tour that replays `archive`, a tour recorded with `--record-har`, with no server:
    /// every client of the tour sends through one `MockSession(replaying:)`, so each request gets
    /// the answer recorded for it, in the order they were recorded, through the clients' own
    /// actions, login, retries and decoding. The steps that need a live server (recording a new
    /// session, HTTPS) say so and are skipped.
    init(replaying archive: HTTPArchive, console: TourConsole = .standardOutput, isVerbose: Bool = false) throws {
        guard let first = archive.log.entries.first.flatMap({ URL(string: $0.request.url) }),
            var origin = URLComponents(url: first, resolvingAgainstBaseURL: false)
        else { throw TourFailure("the HAR file records no request to replay") }
        origin.path = ""
        origin.query = nil
        guard let baseURL = origin.url else { throw TourFailure("the HAR file's first URL has no origin") }
        self.init(
            baseURL: baseURL, recorder: nil, console: console, isVerbose: isVerbose,
            wiring: ClientWiring(archiveRecorder: nil, replay: MockSession(replaying: archive)))
    }

    private init(baseURL: URL, recorder: RequestRecorder?, console: TourConsole, isVerbose: Bool, wiring: ClientWiring)
    {
        self.baseURL = baseURL
        self.recorder = recorder
        self.console = console
        self.isVerbose = isVerbose
        self.wiring = wiring
        self.client = Self.makeClient(
            baseURL: baseURL, console: console, events: events, tracer: tracer, metrics: metrics, isVerbose: isVerbose,
            wiring: wiring)
    }

    /// What the tour's clients send through: a real transport, recorded or not, or a replay.
    struct ClientWiring: Sendable {
        /// Records every request of every client, when the tour is recorded.
        let archiveRecorder: HTTPArchiveRecorder?
        /// The one session every client sends through when the tour is replayed.
        let replay: MockSession?
    }

    /// Whether the tour replays a recording rather than talking to a server.
    var isReplay: Bool { wiring.replay != nil }

    /// A recorder for the whole tour's traffic, named after it.
    static func makeArchiveRecorder() -> HTTPArchiveRecorder {
        HTTPArchiveRecorder(creator: HTTPArchive.Creator(name: "ECNetworking tour", version: "1"))
    }

    /// How many requests the embedded server has answered so far; `nil` against another server.
    var serverRequestCount: Int? {
        get async { await recorder?.requests.count }
    }

    /// Runs every step in order; the first one that misbehaves ends the tour with its error.
    func run() async throws {
        if isReplay {
            console.write("ECNetworking tour replayed from a HAR recording of \(baseURL.absoluteString), no server")
        } else {
            console.write("ECNetworking tour against \(baseURL.absoluteString)")
        }
        try await logIn()
        try await listUsers()
        let user = try await createUser()
        try await getUser(user)
        try await deleteUser(user)
        try await shareOneLogin()
        try await retryFlakyEndpoint()
        try await storedThenFreshCatalog()
        try await generatedOpenAPIClient()
        try await transfers()
        if isReplay {
            console.step(11, "Record a session as HAR, then replay it: skipped, this tour is that replay")
            console.step(12, "HTTPS: skipped, a replay has no server to present a certificate")
        } else {
            try await recordAndReplay()
            try await https()
        }
        console.write("")
        console.write("Tour complete: every step behaved as expected.")
    }

    /// Step 1: the first request that needs a token holds back in will-begin while the client logs in.
    func logIn() async throws {
        console.step(1, "Log in on demand")
        events.removeAll()
        let serverBefore = await recorder?.loginCount
        let users = try await client.send(ListUsersRequest())
        let token = try await heldToken()
        console.result(
            "Token \(token.token.prefix(8))…, valid for \(token.expiresIn) s; [User] with \(users.count) users")

        let logins = await client.refreshCount
        try TourFailure.check(logins == 1, "expected one login for the first request, the client made \(logins)")
        let trace = events.events
        let listingWaited = trace.firstIndex { $0.stage == .willBegin && $0.path.hasSuffix("/users") }
        let loginCompleted = trace.firstIndex { $0.stage == .completed && $0.path.hasSuffix("/login") }
        let listingBegan = trace.firstIndex { $0.stage == .began && $0.path.hasSuffix("/users") }
        guard let listingWaited, let loginCompleted, let listingBegan,
            listingWaited < loginCompleted, loginCompleted < listingBegan
        else {
            throw TourFailure("the login did not happen between the listing's will-begin and began stages")
        }
        console.passed("GET /users waited in will-begin while POST /login ran, then went out with the token")
        try await checkServerLogins(since: serverBefore, expected: 1)
    }

    /// Step 2: the token from step 1 is reused; no second login.
    func listUsers() async throws {
        console.step(2, "List the users online")
        let users = try await client.send(ListUsersRequest(online: true))
        console.result("[User]: \(users.map(\.name).joined(separator: ", "))")
        try TourFailure.check(users.allSatisfy(\.online), "?online=true returned offline users")
        let logins = await client.refreshCount
        try TourFailure.check(logins == 1, "the listing logged in again: \(logins) logins so far")
        console.passed("only online users, sent with the token from step 1")
    }

    /// Step 3: a `201` decodes to a ``User``; a `422` carries the server's ``APIError`` in the typed error.
    func createUser() async throws -> User {
        console.step(3, "Create a user, then an invalid one")
        let user = try await client.send(CreateUserRequest(name: "Barbara Liskov", email: "barbara@example.com"))
        console.result("201 → \(user)")
        try TourFailure.check(user.name == "Barbara Liskov", "the created user is \(user.name)")

        let rejection = try await apiError(from: CreateUserRequest(name: "", email: "not-an-address"), status: 422)
        let fields = (rejection.fields ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        console.result("422 → APIError \(rejection.error): \(fields.joined(separator: "; "))")
        try TourFailure.check(
            rejection.fields?["name"] != nil && rejection.fields?["email"] != nil,
            "the 422 should name both invalid fields, it named \(fields)")
        console.passed("NetworkError.unacceptableStatusCode carried the body; decodeBody(APIError.self) read it")
        return user
    }

    /// Step 4: a read decodes to the same ``User``; an unknown identifier is a `404` with an ``APIError``.
    func getUser(_ user: User) async throws {
        console.step(4, "Read the user, then one that does not exist")
        let fetched = try await client.send(GetUserRequest(id: user.id))
        console.result("200 → \(fetched)")
        try TourFailure.check(fetched == user, "read \(fetched), created \(user)")

        let missing = try await apiError(from: GetUserRequest(id: 999_999), status: 404)
        console.result("404 → APIError \(missing.error): \(missing.message)")
        try TourFailure.check(missing.error == "not_found", "the 404 body says \(missing.error)")
    }

    /// Step 5: a `204 No Content` decodes to `Void`.
    func deleteUser(_ user: User) async throws {
        console.step(5, "Delete the user")
        try await client.send(DeleteUserRequest(id: user.id))
        let status = events.events.last { $0.stage == .completed && $0.method == "DELETE" }?.statusCode
        try TourFailure.check(
            status == 204, "expected 204 No Content, the server answered \(String(describing: status))")
        console.result("204 No Content → Void")

        let gone = try await apiError(from: GetUserRequest(id: user.id), status: 404)
        console.passed("reading the user again is a 404 (\(gone.error))")
    }

    /// Step 6: ten requests that all find no token share one login.
    func shareOneLogin() async throws {
        console.step(6, "Ten concurrent requests on a new client, one login")
        // Without coalescing, so that all ten go to the server instead of sharing identical GETs.
        let newClient = Self.makeClient(
            baseURL: baseURL, console: console, events: events, tracer: tracer, metrics: metrics, isVerbose: isVerbose,
            wiring: wiring
        ) {
            $0.coalescesIdenticalRequests = false
        }
        let serverBefore = await recorder?.loginCount
        let answered = try await withThrowingTaskGroup(of: [User].self) { group in
            for index in 0..<10 {
                group.addTask { try await newClient.send(ListUsersRequest(online: index.isMultiple(of: 2))) }
            }
            return try await group.reduce(0) { count, _ in count + 1 }
        }
        let logins = await newClient.refreshCount
        console.result("\(answered) answers; logins by the new client: \(logins)")
        try TourFailure.check(answered == 10, "only \(answered) of 10 requests were answered")
        try TourFailure.check(logins == 1, "ten concurrent requests caused \(logins) logins instead of one")
        try await checkServerLogins(since: serverBefore, expected: 1)
        console.passed("the ten requests waited for one shared login")
    }

    /// Step 7: a `503` with `Retry-After: 1` is retried by the ``RetryPolicy`` after a second, then succeeds.
    func retryFlakyEndpoint() async throws {
        console.step(7, "A flaky endpoint: 503 with Retry-After, then 200")
        let request = FlakyRequest()
        let reply = try await client.send(request)
        // The path as built, so a base URL with a path of its own (`--base-url http://host/api`) matches too.
        let delays = events.retryDelays(path: request.buildRequest(with: baseURL).url.path)
        console.result("retries: \(delays.count), after \(delays.map(TourConsole.format).joined(separator: ", "))")
        console.result("200 → \(reply)")
        try TourFailure.check(reply.ok && reply.attempt == 2, "expected success on attempt 2, got \(reply)")
        try TourFailure.check(delays.count == 1, "expected one retry, saw \(delays.count)")
        // Jitter never shortens a server's Retry-After, so anything clearly under a second means it was ignored.
        try TourFailure.check(delays[0] >= .milliseconds(950), "Retry-After: 1 was not honoured: \(delays[0])")
        console.passed("the retry policy waited for Retry-After before the second attempt")
    }

    /// Step 8: `storedThenFresh` shows the stored catalog at once, with its age, then the server's
    /// answer; the stored entry's `ETag` makes that answer a `304` without a body, so the catalog is
    /// not downloaded again.
    func storedThenFreshCatalog() async throws {
        console.step(8, "Stored then fresh: the catalog from the store, then revalidated with a 304")
        let store = InMemoryResponseStore()
        let request = CatalogRequest()
        let stored = try await client.network.send(request, storage: store, policy: .networkOnly)
        console.result("first send: \(stored.value.count) products from the \(stored.source), now in the store")
        // As if the screen opened a moment later, so the age shown is visibly that of a stored copy.
        try await Task.sleep(for: .milliseconds(300))
        let notModifiedBefore = await recorder?.catalogNotModifiedCount
        events.removeAll()

        var values: [StoredValue<[Product]>] = []
        for try await value in client.network.storedThenFresh(request, storage: store) {
            values.append(value)
            switch value.source {
            case .store:
                let age = TourConsole.format(value.age)
                console.result("\(value.value.count) products from the store, stored \(age) ago")
            case .network:
                console.result("\(value.value.count) products from the network, fresh")
            }
        }
        try TourFailure.check(
            values.map(\.source) == [.store, .network],
            "expected the stored value, then the network's, got \(values.map { "\($0.source)" })")
        try TourFailure.check(values[0].value == values[1].value, "the fresh catalog differs from the stored one")

        let path = request.buildRequest(with: baseURL).url.path
        let revalidation = events.events(path: path).last { $0.stage == .completed }
        let status = revalidation?.statusCode
        try TourFailure.check(
            revalidation?.headers["If-None-Match"] != nil, "the fresh request did not carry the stored ETag")
        try TourFailure.check(
            status == 304, "expected 304 Not Modified, the server answered \(String(describing: status))")
        if let notModifiedBefore, let notModifiedAfter = await recorder?.catalogNotModifiedCount {
            console.result("server's 304 count for /catalog: \(notModifiedBefore) → \(notModifiedAfter)")
            try TourFailure.check(
                notModifiedAfter - notModifiedBefore == 1,
                "the server answered \(notModifiedAfter - notModifiedBefore) revalidations with 304, expected 1")
        }
        console.passed("If-None-Match got 304 Not Modified: the stored body was decoded, not downloaded again")
    }

    /// Step 9: the client swift-openapi-generator made from `Sources/DemoOpenAPI/openapi.yaml` sends
    /// through the tour's network with `NetworkClientTransport`: the held token, the stage tracer
    /// and the logging apply to its operations, a 404 is the operation's documented output, and
    /// each send shows its trace ids and the duration swift-metrics recorded.
    func generatedOpenAPIClient() async throws {
        console.step(9, "A generated OpenAPI client through the same network, traced and measured")
        events.removeAll()
        tracer.clearAll()
        metrics.removeAll()
        let api = Client(serverURL: baseURL, transport: NetworkClientTransport(network: client.network))

        guard case .ok(let listing) = try await api.listUsers(query: .init(online: true)) else {
            throw TourFailure("listUsers did not answer 200")
        }
        let online = try listing.body.json
        console.result("listUsers(online: true) → \(online.map(\.name).joined(separator: ", "))")
        try TourFailure.check(!online.isEmpty && online.allSatisfy(\.online), "listUsers returned offline users")
        guard case .ok(let found) = try await api.getUser(path: .init(id: online[0].id)) else {
            throw TourFailure("getUser(\(online[0].id)) did not answer 200")
        }
        let user = try found.body.json
        console.result("getUser(id: \(user.id)) → .ok, \(user.name)")
        guard case .notFound(let notFound) = try await api.getUser(path: .init(id: 999_999)) else {
            throw TourFailure("getUser(999999) did not answer 404")
        }
        let apiError = try notFound.body.json
        console.result("getUser(id: 999999) → .notFound, APIError \(apiError.error)")
        try TourFailure.check(apiError.error == "not_found", "the 404 body says \(apiError.error)")
        let began = events.events.filter { $0.stage == .began }
        try TourFailure.check(
            began.count == 3 && began.allSatisfy { $0.headers["Authorization"] != nil },
            "the generated calls did not all go out through the actions with the token")
        console.passed("three operations ran through the network's actions and went out with the held token")
        try checkTraces(began: began)
        try checkDurations(count: 3)
    }

    /// Prints each send's trace: its span and its request's, which went out in the request headers
    /// (the in-process tracer injects its ids as `in-memory-trace-id` and `in-memory-span-id`).
    private func checkTraces(began: [StageEvent]) throws {
        let spans = tracer.finishedSpans
        let sends = spans.filter { $0.parentSpanID == nil }
        for send in sends {
            let attempts = spans.filter { $0.parentSpanID == send.spanID }
            var target = ""
            // The send's span has no HTTP attributes; its request's CLIENT span names the URL.
            if case .string(let url)? = attempts.first?.attributes["url.full"]?.toSpanAttribute() {
                // The path is what tells the three apart; the server is the same for all.
                target =
                    URLComponents(string: url).map { $0.percentEncodedPath + ($0.query.map { "?\($0)" } ?? "") } ?? url
            }
            console.result(
                "trace \(send.traceID) \(attempts.first?.operationName ?? send.operationName) \(target): "
                    + "send span \(send.spanID), request span \(attempts.map(\.spanID).joined(separator: ", "))")
        }
        let injected = Set(began.compactMap { $0.headers[InMemoryTracer.traceIDKey] })
        try TourFailure.check(sends.count == 3, "expected one trace per operation, found \(sends.count)")
        try TourFailure.check(
            injected == Set(sends.map(\.traceID)), "the requests did not carry their own trace ids")
        console.passed("one trace per operation, each request carrying its own span's ids")
    }

    /// Prints the `http.client.request.duration` values swift-metrics received during the step: one
    /// per request on the wire, with OpenTelemetry's attributes.
    private func checkDurations(count: Int) throws {
        let durations = metrics.timerValues(label: "http.client.request.duration")
        for value in durations {
            let dimensions = value.dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            console.result("http.client.request.duration \(TourConsole.format(value.duration)) \(dimensions)")
        }
        try TourFailure.check(
            durations.count == count, "expected \(count) request durations, swift-metrics got \(durations.count)")
        console.passed("swift-metrics timed every request, by method, server, scheme and status code")
    }

    // MARK: - Support

    /// The token the client holds, which must exist after an authenticated request.
    private func heldToken() async throws -> Token {
        guard let token = await client.token else {
            throw TourFailure("the first authenticated request did not leave a token behind")
        }
        return token
    }

    /// Sends `request`, which must fail with `status`, and returns the ``APIError`` decoded from
    /// the typed error.
    private func apiError<R: DemoRequest>(from request: R, status: Int) async throws -> APIError {
        do {
            _ = try await client.send(request)
        } catch let error as NetworkError {
            guard error.statusCode == status else {
                throw TourFailure("expected status \(status), got: \(error.localizedDescription)")
            }
            guard let body = error.decodeBody(APIError.self) else {
                throw TourFailure("the \(status) response does not carry an APIError body")
            }
            return body
        }
        throw TourFailure("expected status \(status), but the request succeeded")
    }

    /// Compares the embedded server's login count with `before`, when there is an embedded server.
    private func checkServerLogins(since before: Int?, expected: Int) async throws {
        guard let before, let after = await recorder?.loginCount else { return }
        console.result("server's login count: \(before) → \(after)")
        try TourFailure.check(
            after - before == expected, "the server counted \(after - before) logins, expected \(expected)")
    }

    private static func makeClient(
        baseURL: URL,
        console: TourConsole,
        events: StageEventLog,
        tracer: InMemoryTracer,
        metrics: TourMetrics,
        isVerbose: Bool,
        wiring: ClientWiring,
        configure: (inout NetworkConfiguration) -> Void = { _ in }
    ) -> DemoClient {
        DemoClient(
            baseURL: baseURL,
            // The log repeats the trace with headers and a cURL line each: worth it only when asked
            // for. It goes out as structured swift-log records, each shown with its fields.
            logSink: isVerbose
                ? .logger(Logger(label: "ECNetworking") { _ in TourLogHandler(console: console) }) : .discard,
            stageObserver: { event in
                events.append(event)
                console.trace(event)
            },
            configure: { configuration in
                configuration.tracer = tracer
                configuration.metricsFactory = metrics
                configuration.archiveRecorder = wiring.archiveRecorder
                configure(&configuration)
            },
            session: wiring.replay)
    }
}

extension InMemoryTracer.IDGenerator {
    /// Random ids of W3C trace context's sizes (16 and 8 bytes, in hex), as a real tracer makes.
    static var hexadecimal: Self {
        Self(nextTraceID: { randomHex(bytes: 16) }, nextSpanID: { randomHex(bytes: 8) })
    }

    private static func randomHex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(UInt8.random(in: 0...255), radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
