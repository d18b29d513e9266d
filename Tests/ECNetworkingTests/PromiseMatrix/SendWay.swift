import ECNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if OpenAPI
    import HTTPTypes
    import OpenAPIRuntime
#endif

/// Every way the package offers to send a request, as the promise matrix runs each one: the send
/// is made through the public API as the README and articles show it, and its answer read to the
/// end (the body, the events, the file).
enum SendWay: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `send(_:)`: the whole body, validated.
    case send
    /// `send(_:completion:)` of a typed request: the completion handler's one result.
    case completionHandler
    /// `responses(for:)`: the sequence of a typed request's one response, read to its end.
    case responses
    /// `stream(_:)`: the head, then the body as it arrives.
    case stream
    /// `download(_:to:)`: the body written to a file.
    case download
    /// `download(_:resumingWith:)`: a download resumed from resume data a caller kept (as JSON), whose
    /// partial file holds one byte. The server here ignores `Range`, so each resume starts over.
    case resumedDownload
    /// A POST of a file's bytes (`RequestBody.file(at:contentType:)`).
    case uploadFile
    /// A POST of a one-shot stream (`RequestBody.stream(_:length:contentType:)`).
    case uploadStream
    /// A POST of a multipart form with a field and a file (`RequestBody.multipart(_:)`).
    case uploadForm
    /// `serverSentEvents(_:)`: a subscription read until the server ends the stream.
    case serverSentEvents
    /// `send(_:storage:policy:)` through a store of its own, `.networkFallingBackToStored` (the
    /// policy whose failures pass through the most code). The matrix's requests carry a credential
    /// without a partition, so the store is read for nothing and nothing is kept: the row checks the
    /// send's own path around the store.
    case storage
    /// `storedThenFresh(_:storage:)` through a store of its own, read to its end.
    case storedThenFresh
    #if OpenAPI
        /// An operation of a generated client, through `NetworkClientTransport`.
        case openAPI
    #endif

    var testDescription: String { rawValue }

    /// Whether the way's request carries a body (with a field named `password`).
    var uploads: Bool {
        switch self {
        case .uploadFile, .uploadStream, .uploadForm: true
        default: false
        }
    }

    /// The request as this way sends it: `request` itself, or a POST of a body holding
    /// `bodySecret` as the value of a `password` field, whose file (if any) is made in `folder`.
    func request(from request: NetworkRequest, bodySecret: String, folder: URL) throws -> NetworkRequest {
        var request = request
        let json = Data(#"{"name":"ada","password":"\#(bodySecret)"}"#.utf8)
        switch self {
        case .uploadFile:
            let file = folder.appendingPathComponent("upload-\(UUID().uuidString).json")
            try json.write(to: file)
            request.method = .post
            request.body = .file(at: file, contentType: "application/json")
        case .uploadStream:
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(json.prefix(10))
                continuation.yield(json.dropFirst(10))
                continuation.finish()
            }
            request.method = .post
            request.body = .stream(chunks, contentType: "application/json")
        case .uploadForm:
            let file = folder.appendingPathComponent("photo-\(UUID().uuidString).txt")
            try Data("photo bytes".utf8).write(to: file)
            var form = MultipartFormData()
            form.append("ada", name: "name")
            form.append(bodySecret, name: "password")
            form.append(fileAt: file, name: "photo", contentType: "text/plain")
            request.method = .post
            request.body = .multipart(form)
        default:
            break
        }
        return request
    }

    /// Sends `request` this way through `network` and reads the answer to its end; a download
    /// goes to a file in `folder`. Throws what the send threw, for OpenAPI the `NetworkError`
    /// inside the runtime's `ClientError`.
    @discardableResult
    func run(
        _ request: NetworkRequest,
        through network: any Network,
        bodySecret: String = "not-a-secret",
        folder: URL
    ) async throws -> SendOutcome {
        let request = try self.request(from: request, bodySecret: bodySecret, folder: folder)
        switch self {
        case .send, .uploadFile, .uploadStream, .uploadForm:
            let response = try await network.send(request)
            return SendOutcome(status: response.statusCode, body: response.body)
        case .stream:
            let stream = try await network.stream(request)
            return SendOutcome(status: stream.response.statusCode, body: try await stream.collect())
        case .download:
            let destination = folder.appendingPathComponent("download-\(UUID().uuidString)")
            let file = try await network.download(request, to: destination)
            return SendOutcome(status: file.response.statusCode, body: try Data(contentsOf: destination))
        case .resumedDownload:
            let destination = folder.appendingPathComponent("download-\(UUID().uuidString)")
            let file = try await network.download(request, resumingWith: try Self.resumeData(to: destination))
            return SendOutcome(status: file.response.statusCode, body: try Data(contentsOf: destination))
        case .serverSentEvents:
            var data = Data()
            for try await event in network.serverSentEvents(RawEventsRequest(request: request)) {
                data.append(Data(event.data.utf8))
            }
            return SendOutcome(status: 200, body: data)
        case .completionHandler:
            let response = try await Self.sendWithCompletionHandler(RawTypedRequest(request: request), through: network)
            return SendOutcome(status: response.statusCode, body: response.body)
        case .responses:
            var values: [NetworkResponse] = []
            for try await value in network.responses(for: RawTypedRequest(request: request)) { values.append(value) }
            // A cancelled consumer sees the sequence end without a value, as the docs say.
            guard let response = values.first else { throw EndedWithoutValue() }
            guard values.count == 1 else { throw UnexpectedValues(count: values.count) }
            return SendOutcome(status: response.statusCode, body: response.body)
        case .storage:
            let stored = try await network.send(
                RawTypedRequest(request: request), storage: InMemoryResponseStore(),
                policy: .networkFallingBackToStored)
            return SendOutcome(status: stored.value.statusCode, body: stored.value.body)
        case .storedThenFresh:
            var values: [StoredValue<NetworkResponse>] = []
            for try await value in network.storedThenFresh(
                RawTypedRequest(request: request), storage: InMemoryResponseStore())
            {
                values.append(value)
            }
            // A cancelled consumer sees the sequence end without a value, as the docs say.
            guard !values.isEmpty else { throw EndedWithoutValue() }
            // An empty store: the network's answer alone.
            guard values.count == 1, let fresh = values.first, fresh.source == .network else {
                throw UnexpectedValues(count: values.count)
            }
            return SendOutcome(status: fresh.value.statusCode, body: fresh.value.body)
        #if OpenAPI
            case .openAPI:
                return try await Self.runOperation(request, through: network)
        #endif
        }
    }

    /// Sends `request` with a completion handler, cancelled through its `Cancellable` when the
    /// calling task is. A second call of the handler resumes the continuation twice, which stops
    /// the process: the test run fails.
    private static func sendWithCompletionHandler(_ request: RawTypedRequest, through network: any Network)
        async throws -> NetworkResponse
    {
        let send = CancellableSlot()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                send.hold(network.send(request) { continuation.resume(with: $0) })
            }
        } onCancel: {
            send.cancel()
        }
    }

    /// The ``Cancellable`` of a send, held for a cancellation that may come before it is returned.
    private final class CancellableSlot: @unchecked Sendable {
        // Guarded by `lock`: the caller's task holds the send while its cancellation handler,
        // on another thread, may cancel it.
        private let lock = NSLock()
        private var cancellable: (any Cancellable)?
        private var isCancelled = false

        func hold(_ send: any Cancellable) {
            let cancelNow = lock.withLock {
                cancellable = send
                return isCancelled
            }
            if cancelNow { send.cancel() }
        }

        func cancel() {
            let send = lock.withLock {
                isCancelled = true
                return cancellable
            }
            send?.cancel()
        }
    }

    /// `storedThenFresh` over an empty store yielded other than the network's one answer.
    struct UnexpectedValues: Error {
        let count: Int
    }

    /// `storedThenFresh` or `responses(for:)` ended without a value or an error: how their
    /// sequence, an `AsyncThrowingStream`, ends for a consumer whose task is cancelled.
    struct EndedWithoutValue: Error {}

    /// Resume data for a download to `destination`, as a caller who stored it reads it back: a
    /// partial file of one byte beside it (0600, named as the library names them), and a strong
    /// validator.
    private static func resumeData(to destination: URL) throws -> ResumeData {
        struct Stored: Encodable {
            let destination: URL
            let partialFileURL: URL
            let byteCount: Int64
            let validator: String
        }
        let partial = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).download")
        guard
            FileManager.default.createFile(
                atPath: partial.path, contents: Data("x".utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        let stored = Stored(destination: destination, partialFileURL: partial, byteCount: 1, validator: "\"v1\"")
        return try JSONDecoder().decode(ResumeData.self, from: JSONEncoder().encode(stored))
    }

    /// The error a send of any way failed with, as the promises speak of it: for a download,
    /// the send's own error inside ``DownloadError/resumable(_:cause:)`` when the body (or the head
    /// of a resume) broke and its partial file was kept.
    static func sendError(_ error: any Error) -> any Error {
        guard case DownloadError.resumable(_, let cause) = error else { return error }
        return cause
    }

    #if OpenAPI
        /// `request` as a generated client hands it to its transport, and the answer read whole.
        private static func runOperation(_ request: NetworkRequest, through network: any Network) async throws
            -> SendOutcome
        {
            let (status, body) = try await operation(request, through: network)
            var data = Data()
            if let body { data = try await Data(collecting: body, upTo: .max) }
            return SendOutcome(status: status, body: data)
        }

        /// Sends `request` as a generated client hands it to its transport and returns the status
        /// and the body, unread. Throws the `NetworkError` inside the runtime's `ClientError`.
        static func operation(_ request: NetworkRequest, through network: any Network) async throws
            -> (status: Int, body: HTTPBody?)
        {
            var fields = HTTPFields()
            for field in request.headers {
                fields.append(HTTPField(name: HTTPField.Name(field.name)!, value: field.value))
            }
            let url = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            let path = url.percentEncodedPath + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
            var root = url
            root.path = "/"
            root.query = nil
            let operation = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path, headerFields: fields)
            do {
                let (response, body) = try await NetworkClientTransport(network: network).send(
                    operation, body: nil, baseURL: try #require(root.url), operationID: "matrixOperation")
                return (response.status.code, body)
            } catch let error as ClientError {
                throw error.underlyingError
            }
        }
    #endif
}

/// What a way's send answered: the final status, and the body as the caller read it.
struct SendOutcome: Sendable {
    let status: Int
    let body: Data
}

/// Records an issue unless `result` is how a cancelled send of `way` ends: with
/// ``NetworkError/cancelled``, or for `storedThenFresh` and `responses(for:)`, whose consumer was
/// cancelled, with the end of its sequence.
func expectCancelled(
    _ result: Result<SendOutcome, any Error>, of way: SendWay, sourceLocation: SourceLocation = #_sourceLocation
) {
    switch result {
    case .success(let outcome):
        Issue.record("the cancelled send succeeded with status \(outcome.status)", sourceLocation: sourceLocation)
    case .failure(NetworkError.cancelled):
        break
    case .failure(is SendWay.EndedWithoutValue) where way == .storedThenFresh || way == .responses:
        break
    case .failure(let error):
        Issue.record("the cancelled send threw \(error), not NetworkError.cancelled", sourceLocation: sourceLocation)
    }
}

/// A raw request as a typed (and storable) one, answered by the whole validated response.
struct RawTypedRequest: StorableRequest {
    typealias Response = NetworkResponse
    let request: NetworkRequest

    func buildRequest(with baseURL: URL) -> NetworkRequest { request }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> NetworkResponse { response }
}

/// A raw request as a typed one, for the event-stream subscription.
struct RawEventsRequest: Request {
    typealias Response = NetworkResponse
    let request: NetworkRequest

    func buildRequest(with baseURL: URL) -> NetworkRequest { request }
}

/// A folder of its own under the temporary directory, removed by ``remove()``.
struct ScratchFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ecnetworking-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Every file in the folder, with its contents.
    func files() -> [(name: String, contents: Data)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.map { name in
            (name, (try? Data(contentsOf: url.appendingPathComponent(name))) ?? Data())
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
