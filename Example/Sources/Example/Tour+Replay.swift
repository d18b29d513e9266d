import DemoClient
import DemoServer
import ECNetworking
import ECNetworkingTesting
import Foundation

extension Tour {
    /// Step 11: a session recorded as a HAR file against the server, redacted by the logs' rules,
    /// then replayed through `FakeNetwork` with the same typed requests: the same values come
    /// back, and not one request reaches the server.
    func recordAndReplay() async throws {
        console.step(11, "Record a session as HAR, then replay it without the server")
        // A new client, so the recording starts with its login.
        let recorder = HTTPArchiveRecorder(creator: HTTPArchive.Creator(name: "ECNetworking tour", version: "1"))
        let recording = DemoClient(
            baseURL: baseURL, logSink: .discard, stageObserver: { [console] in console.trace($0) },
            configure: { $0.archiveRecorder = recorder })
        let users = try await recording.send(ListUsersRequest(online: true))
        let created = try await recording.send(CreateUserRequest(name: "Ada Lovelace", email: "ada@example.com"))
        let read = try await recording.send(GetUserRequest(id: created.id))
        guard let token = await recording.token?.token else { throw TourFailure("the recording client holds no token") }
        let archive = try await withScratchDirectory { directory in
            let file = directory.appendingPathComponent("tour.har")
            try await recorder.write(to: file)

            let archive = try HTTPArchive(contentsOf: file)
            let calls = archive.log.entries.map {
                "\($0.request.method) \(URL(string: $0.request.url)?.path ?? "?") \($0.response.status)"
            }
            console.result("tour.har: \(calls.joined(separator: ", "))")
            let permissions =
                try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
            try TourFailure.check(permissions?.intValue == 0o600, "the HAR file is not private to the user")
            let text = try String(contentsOf: file, encoding: .utf8)
            try TourFailure.check(!text.contains(token), "the HAR file holds the bearer token")
            let login = archive.log.entries.first { $0.request.url.hasSuffix("/login") }?.request.postData?.text ?? ""
            try TourFailure.check(
                login.contains("<redacted>") && !text.contains(Credentials.demo.password),
                "the login's password is not redacted in the HAR file: \(login)")
            return archive
        }
        console.passed("\(archive.log.entries.count) entries, 0600, the token and the password redacted")

        let serverRequests = await self.serverRequestCount
        let replay = FakeNetwork(replaying: archive, configuration: recording.network.configuration)
        let replayedUsers = try await replay.send(ListUsersRequest(online: true))
        let replayedCreated = try await replay.send(CreateUserRequest(name: "Ada Lovelace", email: "ada@example.com"))
        let replayedRead = try await replay.send(GetUserRequest(id: created.id))
        try TourFailure.check(
            replayedUsers == users && replayedCreated == created && replayedRead == read,
            "the replay answered other values than the server did")
        let afterReplay = await self.serverRequestCount
        try TourFailure.check(afterReplay == serverRequests, "the replay reached the server")
        console.passed("FakeNetwork(replaying:) answered the same [User], 201 and User, and the server saw no request")
    }
}
