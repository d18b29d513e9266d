import ECNetworking
import Foundation

extension FakeNetwork {
    /// A fake that answers every request it has no stub for from a recorded HAR archive (see
    /// `HTTPArchiveRecorder`), through a real network over a ``MockSession`` made with
    /// ``MockSession/init(replaying:sensitiveData:replaysTimings:)``: the requests go through the
    /// configuration's actions, validation and decoding as the recording's did, and no server runs.
    ///
    /// ```swift
    /// let fake = try FakeNetwork(replaying: HTTPArchive(contentsOf: tourArchive), configuration: configuration)
    /// let users = try await fake.send(ListUsersRequest(online: true))  // as recorded
    /// ```
    ///
    /// Stubs added to the fake answer first, as with any fake; a request neither a stub nor an entry
    /// matches fails with ``MockSessionError/noStub(request:)``, naming its method and URL.
    public convenience init(
        replaying archive: HTTPArchive, configuration: NetworkConfiguration, replaysTimings: Bool = false
    ) {
        let session = MockSession(
            replaying: archive, sensitiveData: configuration.sensitiveData, replaysTimings: replaysTimings)
        self.init(
            configuration: configuration,
            passingUnstubbedRequestsTo: URLSessionNetwork(configuration: configuration, session: session))
    }
}
