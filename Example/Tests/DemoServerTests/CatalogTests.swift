import DemoServer
import Foundation
import Testing

@Suite("GET /catalog")
struct CatalogTests {
    @Test func answersWithTheProductsAQuotedETagAndLastModified() async throws {
        try await withDemoServer { server, client in
            let response = try await client.get("/catalog")

            #expect(response.status == 200)
            #expect(try response.decode([Product].self) == Product.seed)
            let entityTag = try #require(response.header("ETag"))
            #expect(entityTag == "\"catalog-v1\"")
            #expect(response.header("Last-Modified")?.hasSuffix(" GMT") == true)
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(await server.catalogETag == entityTag)
            #expect(await server.recorder.catalogHits == 1)
            #expect(await server.recorder.catalogNotModifiedCount == 0)
        }
    }

    @Test func aMatchingIfNoneMatchGetsNotModifiedWithoutABody() async throws {
        try await withDemoServer { server, client in
            let entityTag = try #require(try await client.get("/catalog").header("ETag"))

            let response = try await client.send("GET", "/catalog", headers: ["If-None-Match": entityTag])

            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == entityTag)
            #expect(await server.recorder.catalogHits == 2)
            #expect(await server.recorder.catalogNotModifiedCount == 1)
            let recorded = await server.recorder.requests(path: "/catalog")
            #expect(recorded.map { $0.headers["If-None-Match"] } == [nil, entityTag])
        }
    }

    @Test(arguments: ["\"other\", W/\"catalog-v1\"", "*", "W/\"catalog-v1\""])
    func listsWildcardsAndWeakTagsMatchToo(ifNoneMatch: String) async throws {
        try await withDemoServer { _, client in
            let response = try await client.send("GET", "/catalog", headers: ["If-None-Match": ifNoneMatch])

            #expect(response.status == 304)
        }
    }

    @Test func anotherTagGetsTheCatalog() async throws {
        try await withDemoServer { _, client in
            let response = try await client.send("GET", "/catalog", headers: ["If-None-Match": "\"catalog-v0\""])

            #expect(response.status == 200)
            #expect(try response.decode([Product].self) == Product.seed)
        }
    }

    @Test func ifModifiedSinceAloneIsHonouredButIfNoneMatchWins() async throws {
        try await withDemoServer { _, client in
            let lastModified = try #require(try await client.get("/catalog").header("Last-Modified"))

            let unchanged = try await client.send("GET", "/catalog", headers: ["If-Modified-Since": lastModified])
            let older = try await client.send(
                "GET", "/catalog", headers: ["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"])
            // The stale tag decides, whatever the date says (RFC 9110 section 13.2.2).
            let staleTag = try await client.send(
                "GET", "/catalog", headers: ["If-None-Match": "\"catalog-v0\"", "If-Modified-Since": lastModified])

            #expect(unchanged.status == 304)
            #expect(older.status == 200)
            #expect(staleTag.status == 200)
        }
    }

    @Test func afterABumpTheOldTagGetsTheNewCatalog() async throws {
        try await withDemoServer { server, client in
            let first = try await client.get("/catalog")
            let oldTag = try #require(first.header("ETag"))
            let oldDate = try #require(first.header("Last-Modified"))

            let bump = try await client.send("POST", "/catalog/bump")
            let changed = try await client.send(
                "GET", "/catalog", headers: ["If-None-Match": oldTag, "If-Modified-Since": oldDate])
            let newTag = try #require(changed.header("ETag"))
            let again = try await client.send("GET", "/catalog", headers: ["If-None-Match": newTag])
            // A change gives a later date even within the same second, so a date alone sees it too.
            let byDate = try await client.send("GET", "/catalog", headers: ["If-Modified-Since": oldDate])

            #expect(bump.status == 204)
            #expect(changed.status == 200)
            #expect(newTag != oldTag)
            #expect(try changed.decode([Product].self).count == Product.seed.count + 1)
            #expect(again.status == 304)
            #expect(byDate.status == 200)
            #expect(await server.recorder.catalogNotModifiedCount == 1)
        }
    }

    @Test func bumpCatalogChangesTheTagLikeTheRoute() async throws {
        try await withDemoServer { server, client in
            let before = await server.catalogETag

            let after = await server.bumpCatalog()
            let response = try await client.send("GET", "/catalog", headers: ["If-None-Match": before])

            #expect(after == "\"catalog-v2\"")
            #expect(response.status == 200)
            #expect(response.header("ETag") == after)
        }
    }
}
