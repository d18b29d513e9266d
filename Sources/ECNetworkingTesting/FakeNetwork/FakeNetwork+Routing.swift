import ECNetworking
import Foundation

extension FakeNetwork {
    /// Sends every request of type `R` that has no stub to `network` instead, through that
    /// network's own actions and validation: for a test that fakes most endpoints and lets one
    /// reach a real server, or the other way round. A stub for `R` still answers first; a later
    /// `route` for the same type replaces this one, and ``reset()`` removes it.
    ///
    /// ```swift
    /// let fake = FakeNetwork()
    /// fake.stub(ListUsersRequest.self, with: [User(id: 1, name: "Ada")])
    /// fake.route(SearchRequest.self, to: searchNetwork)
    /// ```
    ///
    /// The send is recorded (``sentRequests(of:)``, ``sendCount(of:)``) but has no entry in
    /// ``sentNetworkRequests``, since `network` builds it; ``cancelAll()`` cancels it.
    public func route<R: Request>(_ requestType: R.Type, to network: any Network) {
        state.withLock { $0.routes[ObjectIdentifier(requestType)] = network }
    }

    /// Where a request of type `R` goes instead of a stub: `nil` when it has a stub, or has no
    /// route and there is no ``unstubbedRequestsNetwork``.
    func passingNetwork<R: Request>(for requestType: R.Type) -> (any Network)? {
        let type = ObjectIdentifier(requestType)
        return state.withLock { state in
            guard state.stubs[type] == nil else { return nil }
            return state.routes[type] ?? unstubbedRequestsNetwork
        }
    }

    /// Records a request passed on to another network, which builds it itself.
    func recordPassedOn<R: Request>(_ request: R) {
        _ = state.withLock { $0.record(requestType: ObjectIdentifier(R.self), request: request, networkRequest: nil) }
    }
}
