import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The hand-written client of ``RawClient`` made to keep the promises the library keeps on every
/// send, each in its leanest form: the send is registered where a "cancel everything" could reach
/// it, waits through a one-shot call that a cancellation handler can end, has a deadline that a
/// shared table holds until the answer comes, reads the clock at the start and the end of the
/// transport, and checks the status and the `Content-Type` before decoding.
///
/// Not a baseline for a bar: a diagnostic, telling how much of the library's cost over the lean
/// client any client pays for those promises, and how much is the library's own.
struct GuardedRawClient<Transport: RawTransport>: Sendable {
    /// The lean client, whose request, session and decoder this one uses.
    let raw: RawClient<Transport>
    /// The sends in progress, where a "cancel everything" would find them.
    let registry = KeyedTable<GuardedCall>()

    /// A client sending through `transport` to `baseURL` with `headers`.
    init(transport: Transport, baseURL: URL, headers: [(name: String, value: String)]) {
        raw = RawClient(transport: transport, baseURL: baseURL, headers: headers)
    }

    /// Sends `GET users` and decodes the list.
    func listUsers() async throws -> [User] {
        let request = raw.usersRequest()
        let call = GuardedCall()
        let registration = registry.insert(call)
        defer { registry.remove(registration) }
        let start = ContinuousClock.now
        let deadline = guardedDeadlines.insert(start + .seconds(60))
        defer { guardedDeadlines.remove(deadline) }
        let data: Data = try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard call.wait(continuation) else { return }
                raw.transport.start(request) { data, response, error in
                    call.finish(Self.outcome(data, response, error))
                }
            }
        } onCancel: {
            call.finish(.failure(CancellationError()))
        }
        // The transport's duration, as the library reads it for a send's timings.
        _ = ContinuousClock.now - start
        return try raw.decoder.decode([User].self, from: data)
    }

    /// The body of an answer with status 200 labelled JSON, or the error.
    private static func outcome(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?)
        -> Result<Data, any Error>
    {
        if let error { return .failure(error) }
        guard let response = response as? HTTPURLResponse else { return .failure(BenchmarkError.missingResponse) }
        guard response.statusCode == 200 else { return .failure(BenchmarkError.unexpectedStatus(response.statusCode)) }
        guard response.mimeType == "application/json" else {
            return .failure(BenchmarkError.unexpectedContentType(response.mimeType))
        }
        return .success(data ?? Data())
    }
}

/// One send's wait: resumed exactly once, by the answer or by cancellation, whichever comes first.
final class GuardedCall: Sendable {
    private let state = Mutex<(waiter: UnsafeContinuation<Data, any Error>?, outcome: Result<Data, any Error>?)>(
        (nil, nil))

    /// Registers the waiter; `false`, having resumed it, when the call has already ended.
    func wait(_ continuation: UnsafeContinuation<Data, any Error>) -> Bool {
        let early = state.withLock { state -> Result<Data, any Error>? in
            if let outcome = state.outcome { return outcome }
            state.waiter = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Ends the call with `outcome` unless it already ended.
    func finish(_ outcome: Result<Data, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Data, any Error>?? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            return .some(state.waiter.take())
        }
        if let waiter { waiter?.resume(with: outcome) }
    }
}

/// Values under the keys it hands out, behind a lock: the registry of sends in progress, and the
/// deadline table.
final class KeyedTable<Value: Sendable>: Sendable {
    private let state = Mutex<(next: Int, values: [Int: Value])>((0, [:]))

    /// Keeps `value` and returns its key.
    func insert(_ value: Value) -> Int {
        state.withLock { state in
            state.next += 1
            state.values[state.next] = value
            return state.next
        }
    }

    /// Forgets the value kept under `key`.
    func remove(_ key: Int) {
        _ = state.withLock { $0.values.removeValue(forKey: key) }
    }
}

/// Every guarded send's deadline, in one table for the process, as the library keeps one scheduler
/// (no timer: the library arms one only for a new earliest deadline, which a run of sends with the
/// same timeout never sets). A global, since a generic type cannot have a stored static property.
private let guardedDeadlines = KeyedTable<ContinuousClock.Instant>()
