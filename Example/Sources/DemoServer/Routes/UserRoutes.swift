internal import Hummingbird

/// `/users`: list, read, create and delete users; every route requires a valid bearer token.
struct UserRoutes {
    let users: UserStore
    let tokens: TokenStore

    func register(on router: Router<BasicRequestContext>) {
        let group = router.group("users").add(middleware: AuthenticationMiddleware(tokens: tokens))
        group.get { request, _ in
            try Response.json(await users.users(online: try Self.onlineFilter(of: request)))
        }
        group.get("{id}") { _, context in
            let id = try context.parameters.require("id", as: Int.self)
            guard let user = await users.user(id: id) else {
                throw DemoServerError.notFound("There is no user with id \(id).")
            }
            return try Response.json(user)
        }
        group.post { request, context in
            let newUser = try await request.decode(as: NewUser.self, context: context)
            let fieldErrors = Self.validationErrors(of: newUser)
            guard fieldErrors.isEmpty else {
                throw DemoServerError(
                    status: .unprocessableContent,
                    body: APIError(error: "validation_failed", message: "The user is invalid.", fields: fieldErrors)
                )
            }
            return try Response.json(await users.create(newUser), status: .created)
        }
        group.delete("{id}") { _, context in
            let id = try context.parameters.require("id", as: Int.self)
            guard await users.delete(id: id) else {
                throw DemoServerError.notFound("There is no user with id \(id).")
            }
            return Response(status: .noContent)
        }
    }

    static func onlineFilter(of request: Request) throws -> Bool? {
        switch request.uri.queryParameters.get("online") {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw DemoServerError.badRequest("Query parameter `online` must be `true` or `false`.")
        }
    }

    static func validationErrors(of newUser: NewUser) -> [String: String] {
        var errors: [String: String] = [:]
        if newUser.name.allSatisfy(\.isWhitespace) {
            errors["name"] = "must not be empty"
        }
        if !newUser.email.contains("@") {
            errors["email"] = "must contain @"
        }
        return errors
    }
}
