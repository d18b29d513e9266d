import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Signing out removes the user's stored responses, and only theirs")
struct SignOutStorageTests {
    private static let planted = [User(id: 7, name: "PLANTED-ADA-SECRET")]

    @Test(
        "signOut(removingStoredResponsesFrom:) empties the signed-out user's partition in every store",
        arguments: ["memory", "disk"])
    func signOutClearsPartition(kind: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sign-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any ResponseStore =
            kind == "disk" ? try DiskResponseStore(directory: directory) : InMemoryResponseStore()
        let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Self.planted))
        let auth = AuthenticatingAction(authenticator: PartitioningAuthenticator(), credential: "ada")
        network.add(action: auth)
        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        let boKey = StoragePartition("user-bo").key(StorageFixtures.usersKey)
        await store.store(StorageFixtures.stored(StorageFixtures.bo), for: boKey)

        await auth.signOut(removingStoredResponsesFrom: [store])

        let adaKey = StoragePartition("user-ada").key(StorageFixtures.usersKey)
        #expect(await store.storedResponse(for: adaKey) == nil)
        #expect(StorageFixtures.users(in: await store.storedResponse(for: boKey)) == StorageFixtures.bo)
        #expect(await auth.credential == nil)
        #expect(session.recordedRequests.count == 1)
        if kind == "disk" {
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            for file in files {
                let bytes = try Data(contentsOf: file)
                #expect(bytes.range(of: Data("PLANTED-ADA-SECRET".utf8)) == nil, "\(file.lastPathComponent)")
            }
        }
    }

    @Test("switching user with resetCredential(to:removingStoredResponsesFrom:) serves the new user nothing of the old")
    func switchingUserServesNothingOfThePrevious() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Self.planted))
        let auth = AuthenticatingAction(authenticator: PartitioningAuthenticator(), credential: "ada")
        network.add(action: auth)
        let store = InMemoryResponseStore()
        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

        await auth.resetCredential(to: "bo", removingStoredResponsesFrom: [store])
        session.stub(with: MockResponse(json: StorageFixtures.bo))
        let bo = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

        #expect(bo.source == .network)
        #expect(bo.value == StorageFixtures.bo)
        #expect(await store.storedResponse(for: StoragePartition("user-ada").key(StorageFixtures.usersKey)) == nil)
        #expect(session.recordedRequests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer bo")
    }
}
