import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends `request` through a real network over a mock session and returns the URL that went on the wire.
private func wireURL(for request: NetworkRequest) async throws -> URL {
    let session = MockSession()
    session.stub(.any, with: MockResponse(statusCode: 200))
    let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
    _ = try await network.send(request)
    let recorded = try #require(session.recordedRequests.first)
    return try #require(recorded.url)
}

/// A request to `path` under the base URL with `items` as its query.
private func searchRequest(_ path: String = "search", items: [URLQueryItem]) -> NetworkRequest {
    NetworkRequest(url: testBaseURL.appendingPathComponent(path), queryItems: items)
}

/// The query of `url` exactly as it is on the wire, still percent-encoded.
private func rawQuery(of url: URL) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery
}

/// The query items of `url`, decoded by Foundation.
private func decodedItems(of url: URL) -> [URLQueryItem] {
    URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
}

/// An encoder for an API that wants `filter[name]=value`, values upper-cased, keys in reverse order.
private struct FilterEncoder: QueryParameterEncoder {
    func queryItems(for parameters: [String: any Sendable]) throws -> [URLQueryItem] {
        parameters.keys.sorted(by: >).map { key in
            URLQueryItem(name: "filter[\(key)]", value: "\(parameters[key]!)".uppercased())
        }
    }
}

private struct RejectingEncoder: QueryParameterEncoder {
    struct Rejected: Error {}

    func queryItems(for parameters: [String: any Sendable]) throws -> [URLQueryItem] {
        throw Rejected()
    }
}

@Suite("Query encoding")
struct QueryEncodingTests {
    // MARK: - Appending and order

    @Test("Query items are appended to a query already in the URL, which is kept verbatim")
    func appendedToExistingQuery() async throws {
        let url = URL(string: "https://api.example.com/v1/users?page=2&q=a+b")!
        let sent = try await wireURL(
            for: NetworkRequest(url: url, queryItems: [URLQueryItem(name: "limit", value: "10")]))
        #expect(sent.absoluteString == "https://api.example.com/v1/users?page=2&q=a+b&limit=10")
    }

    @Test("An empty query in the URL is replaced rather than joined with a stray &")
    func emptyExistingQuery() async throws {
        let url = URL(string: "https://api.example.com/v1/users?")!
        let sent = try await wireURL(for: NetworkRequest(url: url, queryItems: [URLQueryItem(name: "a", value: "1")]))
        #expect(sent.absoluteString == "https://api.example.com/v1/users?a=1")
    }

    @Test("Query items keep the order they were given")
    func deterministicOrder() async throws {
        let items = [
            URLQueryItem(name: "z", value: "1"), URLQueryItem(name: "a", value: "2"),
            URLQueryItem(name: "m", value: "3"), URLQueryItem(name: "a", value: "4"),
        ]
        let sent = try await wireURL(for: searchRequest(items: items))
        #expect(rawQuery(of: sent) == "z=1&a=2&m=3&a=4")
    }

    @Test("A URL without query items is sent unchanged")
    func noQueryItems() async throws {
        let sent = try await wireURL(for: searchRequest("users", items: []))
        #expect(sent.absoluteString == "https://api.example.com/v1/users")
    }

    @Test("A fragment stays after the added query")
    func fragmentKept() async throws {
        let url = URL(string: "https://api.example.com/v1/users#top")!
        let sent = try await wireURL(for: NetworkRequest(url: url, queryItems: [URLQueryItem(name: "a", value: "1")]))
        #expect(sent.absoluteString == "https://api.example.com/v1/users?a=1#top")
    }

    // MARK: - Percent-encoding

    @Test("+, &, = and spaces are percent-encoded in values; a space is %20, not +")
    func reservedCharactersInValues() async throws {
        let sent = try await wireURL(for: searchRequest(items: [URLQueryItem(name: "q", value: "a+b&c=d e")]))
        #expect(rawQuery(of: sent) == "q=a%2Bb%26c%3Dd%20e")
    }

    @Test("Reserved characters are percent-encoded in names too")
    func reservedCharactersInNames() async throws {
        let sent = try await wireURL(for: searchRequest(items: [URLQueryItem(name: "a b&c=d+e", value: "1")]))
        #expect(rawQuery(of: sent) == "a%20b%26c%3Dd%2Be=1")
    }

    @Test("/, ?, #, % and other delimiters are percent-encoded; unreserved characters are not")
    func otherDelimiters() async throws {
        let sent = try await wireURL(
            for: searchRequest(items: [URLQueryItem(name: "v", value: "/?#%[]@!$'()*,;:~-._")]))
        #expect(rawQuery(of: sent) == "v=%2F%3F%23%25%5B%5D%40%21%24%27%28%29%2A%2C%3B%3A~-._")
        #expect(sent.fragment == nil)
    }

    @Test("Non-ASCII names and values are percent-encoded as UTF-8")
    func unicode() async throws {
        let sent = try await wireURL(
            for: searchRequest(items: [
                URLQueryItem(name: "café", value: "é"), URLQueryItem(name: "名前", value: "日本"),
                URLQueryItem(name: "emoji", value: "😀"),
            ]))
        #expect(rawQuery(of: sent) == "caf%C3%A9=%C3%A9&%E5%90%8D%E5%89%8D=%E6%97%A5%E6%9C%AC&emoji=%F0%9F%98%80")
    }

    @Test("An item without a value is sent as its name alone; an empty value keeps its =")
    func nilAndEmptyValues() async throws {
        let sent = try await wireURL(
            for: searchRequest(items: [
                URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "empty", value: ""),
                URLQueryItem(name: "x", value: "1"),
            ]))
        #expect(rawQuery(of: sent) == "flag&empty=&x=1")
        let decoded = decodedItems(of: sent)
        #expect(decoded.map(\.name) == ["flag", "empty", "x"])
        #expect(decoded.map(\.value) == [nil, "", "1"])
    }

    // MARK: - Round trip

    @Test("Decoding the sent URL gives back every original name and value")
    func roundTrip() async throws {
        let items = [
            URLQueryItem(name: "plus", value: "1+1=2"),
            URLQueryItem(name: "amp", value: "Tom & Jerry"),
            URLQueryItem(name: "space name", value: "  leading and trailing  "),
            URLQueryItem(name: "unicode", value: "héllo 日本 😀"),
            URLQueryItem(name: "percent", value: "100%"),
            URLQueryItem(name: "already", value: "%20"),
            URLQueryItem(name: "delims", value: "a/b?c#d;e,f"),
            URLQueryItem(name: "newline", value: "line1\nline2"),
            URLQueryItem(name: "flag", value: nil),
        ]
        let existing = URL(string: "https://api.example.com/v1/search?kept=yes")!
        let sent = try await wireURL(for: NetworkRequest(url: existing, queryItems: items))

        let decoded = decodedItems(of: sent)
        #expect(decoded.map(\.name) == ["kept"] + items.map(\.name))
        #expect(decoded.map(\.value) == ["yes"] + items.map(\.value))
    }

    // MARK: - DefaultQueryParameterEncoder

    @Test("Arrays are written with a repeated key by default, keys sorted")
    func arraysRepeatedKey() async throws {
        var request = searchRequest(items: [])
        try request.addQueryParameters(["tag": ["a", "b c"], "id": 5])
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "id=5&tag=a&tag=b%20c")
    }

    @Test("Arrays can be written with brackets, which are percent-encoded on the wire")
    func arraysBrackets() async throws {
        var request = searchRequest(items: [])
        try request.addQueryParameters(
            ["tag": ["a", "b"]], encoder: DefaultQueryParameterEncoder(arrayEncoding: .brackets))
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "tag%5B%5D=a&tag%5B%5D=b")
        let decoded = decodedItems(of: sent)
        #expect(decoded.map(\.name) == ["tag[]", "tag[]"])
        #expect(decoded.map(\.value) == ["a", "b"])
    }

    @Test("Arrays can be written comma-separated in one item")
    func arraysCommaSeparated() async throws {
        var request = searchRequest(items: [])
        try request.addQueryParameters(
            ["tag": ["a", "b", "c"]], encoder: DefaultQueryParameterEncoder(arrayEncoding: .commaSeparated))
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "tag=a%2Cb%2Cc")
        #expect(decodedItems(of: sent).map(\.value) == ["a,b,c"])
    }

    @Test("Arrays of numbers and of optionals are written element by element, nil elements left out")
    func arraysOfOtherTypes() throws {
        let numbers: [Int] = [1, 2]
        let optionals: [Int?] = [3, nil, 4]
        let items = try DefaultQueryParameterEncoder().queryItems(for: ["n": numbers, "o": optionals])
        #expect(
            items == [
                URLQueryItem(name: "n", value: "1"), URLQueryItem(name: "n", value: "2"),
                URLQueryItem(name: "o", value: "3"), URLQueryItem(name: "o", value: "4"),
            ])
    }

    @Test("Booleans are written as true/false by default")
    func booleansLiteral() throws {
        let items = try DefaultQueryParameterEncoder().queryItems(for: ["on": true, "off": false])
        #expect(items == [URLQueryItem(name: "off", value: "false"), URLQueryItem(name: "on", value: "true")])
    }

    @Test("Booleans can be written as 1/0, in arrays too")
    func booleansNumeric() async throws {
        var request = searchRequest(items: [])
        try request.addQueryParameters(
            ["on": true, "off": false, "flags": [true, false]],
            encoder: DefaultQueryParameterEncoder(boolEncoding: .numeric))
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "flags=1&flags=0&off=0&on=1")
    }

    @Test("A nil optional is left out; a non-nil optional is written without Optional(…)")
    func optionals() throws {
        let missing: String? = nil
        let present: Int? = 3
        let presentFlag: Bool? = true
        let items = try DefaultQueryParameterEncoder().queryItems(
            for: ["missing": missing, "present": present, "flag": presentFlag, "x": "1"])
        #expect(
            items == [
                URLQueryItem(name: "flag", value: "true"), URLQueryItem(name: "present", value: "3"),
                URLQueryItem(name: "x", value: "1"),
            ])
    }

    @Test("Other values are written with their description")
    func otherScalars() throws {
        let items = try DefaultQueryParameterEncoder().queryItems(for: ["d": 1.5, "s": "text", "i": -2])
        #expect(items.map(\.name) == ["d", "i", "s"])
        #expect(items.map(\.value) == ["1.5", "-2", "text"])
    }

    @Test("addQueryParameters appends after items already set")
    func addQueryParametersAppends() async throws {
        var request = searchRequest(items: [URLQueryItem(name: "first", value: "1")])
        try request.addQueryParameters(["b": "2", "a": "1"])
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "first=1&a=1&b=2")
    }

    // MARK: - Custom encoders

    @Test("A custom QueryParameterEncoder decides the names, values and order")
    func customEncoder() async throws {
        var request = searchRequest(items: [])
        try request.addQueryParameters(["name": "ada", "role": "admin"], encoder: FilterEncoder())
        let sent = try await wireURL(for: request)
        #expect(rawQuery(of: sent) == "filter%5Brole%5D=ADMIN&filter%5Bname%5D=ADA")
        #expect(decodedItems(of: sent).map(\.name) == ["filter[role]", "filter[name]"])
    }

    @Test("An error from a custom encoder is thrown from addQueryParameters and adds nothing")
    func customEncoderError() {
        var request = searchRequest(items: [URLQueryItem(name: "a", value: "1")])
        #expect(throws: RejectingEncoder.Rejected.self) {
            try request.addQueryParameters(["x": 1], encoder: RejectingEncoder())
        }
        #expect(request.queryItems == [URLQueryItem(name: "a", value: "1")])
    }
}
