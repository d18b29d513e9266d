internal import Hummingbird

/// Assembles the router of one server: middleware first, then every route collection.
enum DemoRouter {
    static func make(
        configuration: DemoServerConfiguration,
        recorder: RequestRecorder,
        catalog: CatalogStore
    ) -> Router<BasicRequestContext> {
        let router = Router()
        // Outermost first: record even requests that fail, count them while in flight, then shape errors as JSON.
        router.add(middleware: RecordingMiddleware(recorder: recorder))
        router.add(middleware: InFlightMiddleware(recorder: recorder))
        router.add(middleware: ErrorMiddleware())

        let tokens = TokenStore(lifetime: configuration.tokenLifetime)
        AuthenticationRoutes(
            username: configuration.username,
            password: configuration.password,
            tokens: tokens,
            recorder: recorder
        )
        .register(on: router)
        UserRoutes(users: UserStore(users: configuration.initialUsers), tokens: tokens).register(on: router)
        FlakyRoutes(failureCount: configuration.flakyFailureCount, counter: FlakyCounter()).register(on: router)
        SlowRoutes(recorder: recorder).register(on: router)
        DownloadRoutes(recorder: recorder).register(on: router)
        EchoRoutes().register(on: router)
        StatusRoutes().register(on: router)
        RedirectRoutes().register(on: router)
        UploadRoutes().register(on: router)
        FormUploadRoutes().register(on: router)
        TokenStreamRoutes(recorder: recorder).register(on: router)
        EventStreamRoutes(recorder: recorder).register(on: router)
        MislabelledRoutes().register(on: router)
        CatalogRoutes(catalog: catalog, recorder: recorder).register(on: router)
        return router
    }
}
