import ECNetworking
import Foundation

extension FakeNetwork {
    /// The requests of type `R` sent so far, in order, as the values the code under test created,
    /// so a test can check what it asked for (`.map(\.page) == [1, 2]`).
    ///
    /// A send is recorded when it starts, whatever its outcome: failed, cancelled or unstubbed.
    public func sentRequests<R: Request>(of requestType: R.Type) -> [R] {
        let type = ObjectIdentifier(requestType)
        return state.withLock { state in
            state.records.compactMap { $0.requestType == type ? $0.request as? R : nil }
        }
    }

    /// Every request sent so far, typed and raw, in order, as `NetworkRequest`s:
    /// built from the configuration's base URL, as the latest attempt sent it: with the configuration's default
    /// headers and, when ``runsActions`` is `true`, what the will-begin actions changed (headers
    /// added by an authentication action included).
    ///
    /// A typed request whose `buildRequest(with:)` threw has no entry here.
    public var sentNetworkRequests: [NetworkRequest] {
        state.withLock { state in state.records.compactMap(\.networkRequest) }
    }

    /// The `NetworkRequest`s built for requests of type `R`, in order, to check the
    /// URL, query or body a typed request produced.
    public func sentNetworkRequests<R: Request>(of requestType: R.Type) -> [NetworkRequest] {
        let type = ObjectIdentifier(requestType)
        return state.withLock { state in
            state.records.compactMap { $0.requestType == type ? $0.networkRequest : nil }
        }
    }

    /// How many requests of type `R` were sent, for "loads once", "does not reload" checks.
    public func sendCount<R: Request>(of requestType: R.Type) -> Int {
        let type = ObjectIdentifier(requestType)
        return state.withLock { state in state.records.count { $0.requestType == type } }
    }

    /// How many sends the fake received, of every type and raw.
    public var totalSendCount: Int {
        state.withLock { $0.records.count }
    }
}
