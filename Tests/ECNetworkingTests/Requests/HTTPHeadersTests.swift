import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    // MARK: - Lookup and assignment

    @Test("Names are looked up and assigned without regard to case")
    func caseInsensitiveGetAndSet() {
        var headers = HTTPHeaders()
        headers["authorization"] = "Bearer abc"
        #expect(headers["Authorization"] == "Bearer abc")
        #expect(headers["AUTHORIZATION"] == "Bearer abc")
        #expect(headers.contains(name: "AuThOrIzAtIoN"))

        headers["AUTHORIZATION"] = "Bearer xyz"
        #expect(headers.count == 1)
        #expect(headers["authorization"] == "Bearer xyz")
        // Replacing a value keeps the name as it was first given.
        #expect(headers.fields.map(\.name) == ["authorization"])
    }

    @Test("A name that is a prefix of another does not match it")
    func prefixNamesDoNotMatch() {
        let headers: HTTPHeaders = ["Accept-Encoding": "gzip", "Content": "x"]
        #expect(headers["Accept"] == nil)
        #expect(headers["Content-Type"] == nil)
        #expect(!headers.contains(name: "Accept"))
        #expect(headers.values(for: "Accept").isEmpty)
    }

    @Test("add keeps earlier values; the subscript reads them joined by \", \"")
    func addKeepsSeveralValues() {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        headers.add(name: "accept", value: "text/plain")
        headers.add(name: "ACCEPT", value: "*/*")
        #expect(headers.count == 3)
        #expect(headers["Accept"] == "application/json, text/plain, */*")
        #expect(headers.values(for: "aCcEpT") == ["application/json", "text/plain", "*/*"])
    }

    @Test("values(for:) is empty for a missing name and lists values in order")
    func valuesForName() {
        var headers = HTTPHeaders()
        #expect(headers.values(for: "Set-Cookie").isEmpty)
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Other", value: "o")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.values(for: "X-Other") == ["o"])
    }

    @Test("Setting a value replaces every field of that name, at the first one's position")
    func setReplacesAll() {
        var headers = HTTPHeaders()
        headers.add(name: "X-First", value: "1")
        headers.add(name: "Accept", value: "a")
        headers.add(name: "X-Middle", value: "m")
        headers.add(name: "accept", value: "b")
        headers.add(name: "X-Last", value: "z")

        headers["ACCEPT"] = "c"

        #expect(headers.values(for: "Accept") == ["c"])
        #expect(headers["accept"] == "c")
        #expect(headers.fields.map(\.name) == ["X-First", "Accept", "X-Middle", "X-Last"])
        #expect(headers.fields.map(\.value) == ["1", "c", "m", "z"])
    }

    @Test("Setting a new name appends it at the end")
    func setNewNameAppends() {
        var headers: HTTPHeaders = ["A": "1"]
        headers["B"] = "2"
        #expect(headers.fields == [.init(name: "A", value: "1"), .init(name: "B", value: "2")])
    }

    @Test("Setting nil removes every field of that name")
    func settingNilRemoves() {
        var headers: HTTPHeaders = ["Cookie": "a=1", "X-Keep": "k"]
        headers.add(name: "cookie", value: "b=2")
        headers["COOKIE"] = nil
        #expect(headers["Cookie"] == nil)
        #expect(!headers.contains(name: "cookie"))
        #expect(headers.count == 1)
        #expect(headers["X-Keep"] == "k")

        headers["X-Keep"] = nil
        #expect(headers.isEmpty)
        // Removing a name that is not there is harmless.
        headers["Missing"] = nil
        #expect(headers.isEmpty)
    }

    @Test("remove(name:) removes every field of that name regardless of case")
    func removeName() {
        var headers: HTTPHeaders = ["X-A": "1", "x-a": "2", "X-B": "3"]
        headers.remove(name: "X-a")
        #expect(headers.fields == [.init(name: "X-B", value: "3")])
    }

    // MARK: - Construction and order

    @Test("A dictionary literal keeps its order, repeated names included")
    func dictionaryLiteralOrder() {
        let headers: HTTPHeaders = ["Zeta": "1", "Alpha": "2", "Mid": "3", "alpha": "4"]
        #expect(headers.fields.map(\.name) == ["Zeta", "Alpha", "Mid", "alpha"])
        #expect(headers.map(\.value) == ["1", "2", "3", "4"])
        #expect(headers["ALPHA"] == "2, 4")
    }

    @Test("A Swift dictionary is sorted by name so the order is deterministic")
    func dictionaryInitializerSorts() {
        let headers = HTTPHeaders(["b": "2", "C": "3", "a": "1", "Z": "26"])
        // Sorted by the names' code points, as `String` sorts them.
        #expect(headers.fields.map(\.name) == ["C", "Z", "a", "b"])
    }

    @Test("Fields keep their order and repeated names when created from fields")
    func fieldsInitializer() {
        let fields: [HTTPHeaders.Field] = [
            .init(name: "X", value: "1"), .init(name: "Y", value: "2"), .init(name: "x", value: "3"),
        ]
        let headers = HTTPHeaders(fields)
        #expect(headers.fields == fields)
        #expect(headers["X"] == "1, 3")
    }

    // MARK: - addMissing and dictionary

    @Test("addMissing(from:) adds only names not already present; existing fields win")
    func addMissing() {
        var headers: HTTPHeaders = ["Accept": "text/html", "X-Trace": "mine"]
        let defaults: HTTPHeaders = ["accept": "application/json", "User-Agent": "ec/1", "X-TRACE": "theirs"]
        headers.addMissing(from: defaults)
        #expect(headers["Accept"] == "text/html")
        #expect(headers["X-Trace"] == "mine")
        #expect(headers["User-Agent"] == "ec/1")
        #expect(headers.fields.map(\.name) == ["Accept", "X-Trace", "User-Agent"])
    }

    @Test("addMissing(from:) copies every value of a repeated name that is missing")
    func addMissingKeepsRepeatedValues() {
        var headers = HTTPHeaders()
        var other = HTTPHeaders()
        other.add(name: "Accept", value: "a")
        other.add(name: "Accept", value: "b")
        headers.addMissing(from: other)
        #expect(headers.values(for: "Accept") == ["a", "b"])
    }

    @Test("dictionary joins repeated names case-insensitively and keeps the first spelling")
    func dictionaryRepresentation() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add(name: "ACCEPT", value: "b")
        headers.add(name: "accept", value: "c")
        let dictionary = headers.dictionary
        #expect(dictionary == ["Accept": "a, b, c", "X-One": "1"])
    }

    @Test("Equal fields make equal headers")
    func equality() {
        let first: HTTPHeaders = ["A": "1", "B": "2"]
        let second = HTTPHeaders([.init(name: "A", value: "1"), .init(name: "B", value: "2")])
        #expect(first == second)
        #expect(first != ["A": "1", "B": "3"])
    }

    // MARK: - On the wire

    @Test("Request headers win over default headers of the same name in any case")
    func defaultHeadersOnTheWire() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.defaultHeaders = ["Accept": "application/json", "X-Client": "ec"]
        let network = URLSessionNetwork(configuration: configuration, session: session)

        let request = NetworkRequest(headers: ["accept": "text/plain"], url: testBaseURL.appendingPathComponent("x"))
        _ = try await network.send(request)

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(recorded.value(forHTTPHeaderField: "X-Client") == "ec")
        let acceptFields = (recorded.allHTTPHeaderFields ?? [:]).keys.filter { $0.lowercased() == "accept" }
        #expect(acceptFields.count == 1)
    }

    @Test("Every value of a repeated default header reaches the wire")
    func repeatedDefaultHeaderOnTheWire() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.defaultHeaders.add(name: "Accept", value: "application/json")
        configuration.defaultHeaders.add(name: "Accept", value: "text/plain")
        let network = URLSessionNetwork(configuration: configuration, session: session)

        _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("x")))

        let recorded = try #require(session.recordedRequests.first)
        let value = try #require(recorded.value(forHTTPHeaderField: "Accept"))
        let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(parts == ["application/json", "text/plain"])
    }

    @Test("Every value of a repeated header reaches the wire")
    func repeatedHeaderOnTheWire() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)

        var headers = HTTPHeaders()
        headers.add(name: "X-Tag", value: "a")
        headers.add(name: "X-Tag", value: "b")
        _ = try await network.send(NetworkRequest(headers: headers, url: testBaseURL.appendingPathComponent("x")))

        let recorded = try #require(session.recordedRequests.first)
        let value = try #require(recorded.value(forHTTPHeaderField: "x-tag"))
        let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(parts == ["a", "b"])
    }
}
