internal import Hummingbird

/// `GET /catalog`: the products, public, with an `ETag` and `Last-Modified` so that a client can
/// revalidate what it stored; a request naming the current version gets `304 Not Modified` and no
/// body. `POST /catalog/bump` changes the catalog, so that the next revalidation gets a `200`.
struct CatalogRoutes {
    let catalog: CatalogStore
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("catalog") { request, _ in
            let snapshot = await catalog.current
            // `no-cache` lets any cache keep the catalog but not reuse it without asking first, so an
            // HTTP cache inside the client's own stack cannot answer in the server's place and skew
            // the counts.
            var headers: HTTPFields = [.eTag: snapshot.entityTag, .cacheControl: "no-cache"]
            if request.isNotModified(entityTag: snapshot.entityTag, lastModified: snapshot.lastModified) {
                await recorder.recordCatalogHit(notModified: true)
                // A 304 repeats the `ETag` (RFC 9110 section 15.4.5), which lets the client refresh
                // the validators it stored; `Last-Modified` adds nothing next to it.
                return Response(status: .notModified, headers: headers)
            }
            await recorder.recordCatalogHit(notModified: false)
            headers[.lastModified] = HTTPDate.string(from: snapshot.lastModified)
            return try Response.json(snapshot.products, headers: headers)
        }
        router.post("catalog/bump") { _, _ in
            // No `ETag` here: on a response to this POST it would describe `/catalog/bump`, not the catalog.
            await catalog.bump()
            return Response(status: .noContent)
        }
    }
}
