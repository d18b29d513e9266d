import DemoServer
import Foundation
import Testing

@Suite("/users")
struct UserTests {
    @Test func listsTheSeedUsers() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let response = try await client.get("/users", token: token)

            #expect(response.status == 200)
            #expect(try response.decode([User].self) == User.seed)
        }
    }

    @Test(arguments: [true, false])
    func filtersByOnlineStatus(online: Bool) async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let users = try await client.get("/users?online=\(online)", token: token).decode([User].self)

            #expect(users == User.seed.filter { $0.online == online })
            #expect(!users.isEmpty)
        }
    }

    @Test func rejectsAnInvalidOnlineFilter() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let response = try await client.get("/users?online=maybe", token: token)

            #expect(response.status == 400)
            #expect(try response.decode(APIError.self).error == "bad_request")
        }
    }

    @Test func returnsOneUser() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let response = try await client.get("/users/3", token: token)

            #expect(response.status == 200)
            #expect(try response.decode(User.self) == User.seed[2])
        }
    }

    @Test func missingUserIsNotFoundWithAJSONBody() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let response = try await client.get("/users/999", token: token)

            #expect(response.status == 404)
            let error = try response.decode(APIError.self)
            #expect(error.error == "not_found")
            #expect(error.message.contains("999"))
        }
    }

    @Test func createsAUser() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let created = try await client.sendJSON(
                "POST",
                "/users",
                NewUser(name: "Barbara Liskov", email: "barbara@example.com"),
                token: token
            )
            let fetched = try await client.get("/users/5", token: token)

            #expect(created.status == 201)
            let user = try created.decode(User.self)
            #expect(user == User(id: 5, name: "Barbara Liskov", email: "barbara@example.com", online: false))
            #expect(try fetched.decode(User.self) == user)
        }
    }

    @Test func invalidUserGetsFieldErrors() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let response = try await client.sendJSON(
                "POST", "/users", NewUser(name: " ", email: "nowhere"), token: token)

            #expect(response.status == 422)
            let error = try response.decode(APIError.self)
            #expect(error.error == "validation_failed")
            #expect(error.fields == ["name": "must not be empty", "email": "must contain @"])
        }
    }

    @Test func creatingRequiresAToken() async throws {
        try await withDemoServer { _, client in
            let response = try await client.sendJSON("POST", "/users", NewUser(name: "Eve", email: "eve@example.com"))

            #expect(response.status == 401)
        }
    }

    @Test func deletesAUserWithAnEmptyReply() async throws {
        try await withDemoServer { _, client in
            let token = try await client.logIn()
            let deleted = try await client.send("DELETE", "/users/2", headers: ["Authorization": "Bearer \(token)"])
            let deletedAgain = try await client.send(
                "DELETE", "/users/2", headers: ["Authorization": "Bearer \(token)"])
            let fetched = try await client.get("/users/2", token: token)

            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(deletedAgain.status == 404)
            #expect(try deletedAgain.decode(APIError.self).error == "not_found")
            #expect(fetched.status == 404)
        }
    }
}
