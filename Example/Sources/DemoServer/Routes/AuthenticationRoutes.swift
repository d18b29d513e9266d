internal import Hummingbird

/// `POST /login`: exchanges the configured credentials for a bearer token.
struct AuthenticationRoutes {
    let username: String
    let password: String
    let tokens: TokenStore
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.post("login") { request, context in
            await recorder.recordLogin()
            let credentials = try await request.decode(as: Credentials.self, context: context)
            guard credentials.username == username, credentials.password == password else {
                throw DemoServerError(
                    status: .unauthorized,
                    body: APIError(error: "invalid_credentials", message: "The username or password is incorrect.")
                )
            }
            return try Response.json(await tokens.issue())
        }
    }
}
