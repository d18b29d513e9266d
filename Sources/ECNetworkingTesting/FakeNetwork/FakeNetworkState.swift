import ECNetworking
import Foundation

/// Everything a ``FakeNetwork`` shares between concurrent sends, kept behind one lock so a record
/// and the answer it got are never torn apart.
struct FakeNetworkState {
    var stubs: [ObjectIdentifier: FakeStubQueue] = [:]
    var networkRequestStub: NetworkRequestStub?
    var actions: [any Action] = []
    var records: [SentRecord] = []
    /// The networks chosen request types go to instead of a stub.
    var routes: [ObjectIdentifier: any Network] = [:]
    /// Never reset, so a send that outlives `reset()` cannot update a newer send's record.
    var nextRecordID = 0

    /// Appends a record and returns its id, for the update after the will-begin actions.
    mutating func record(
        requestType: ObjectIdentifier?,
        request: (any Request)?,
        networkRequest: NetworkRequest?
    ) -> Int {
        let id = nextRecordID
        nextRecordID += 1
        records.append(
            SentRecord(id: id, requestType: requestType, request: request, networkRequest: networkRequest))
        return id
    }

    mutating func update(record id: Int, with networkRequest: NetworkRequest) {
        // Records are appended in id order, and a send updates its own record soon after, so the
        // search from the end is short.
        guard let index = records.lastIndex(where: { $0.id == id }) else { return }
        records[index].networkRequest = networkRequest
    }
}

/// One send a ``FakeNetwork`` received.
struct SentRecord {
    let id: Int
    /// `nil` for a raw `NetworkRequest` send.
    let requestType: ObjectIdentifier?
    let request: (any Request)?
    /// `nil` when the typed request's `buildRequest(with:)` threw.
    var networkRequest: NetworkRequest?
}

/// The raw stub: how a ``FakeNetwork`` answers `NetworkRequest` sends.
struct NetworkRequestStub {
    let delay: Duration
    let answer: @Sendable (NetworkRequest) throws -> NetworkResponse
}
