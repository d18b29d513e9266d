import ECNetworking
import Foundation
import Testing

extension StorageTests {
    @Suite("Stored responses")
    struct StoredResponses {
        @Test("validators are read without regard to case")
        func validatorsIgnoreCase() {
            let response = StoredResponse(
                statusCode: 200, headers: ["etag": "\"a\"", "LAST-MODIFIED": "Wed, 21 Oct 2015 07:28:00 GMT"])

            #expect(response.etag == "\"a\"")
            #expect(response.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(StoredResponse(statusCode: 200).etag == nil)
        }

        @Test("Codable keeps the headers in order, repeated names included, and the body's bytes")
        func codableRoundTrip() throws {
            var headers = HTTPHeaders()
            headers.add(name: "Vary", value: "Accept")
            headers.add(name: "ETag", value: "\"x\"")
            headers.add(name: "Vary", value: "Origin")
            let response = StoredResponse(
                statusCode: 203, headers: headers, body: Data([0, 255, 10]), storedAt: Date(timeIntervalSince1970: 1000)
            )

            let decoded = try JSONDecoder().decode(StoredResponse.self, from: JSONEncoder().encode(response))

            #expect(decoded == response)
            #expect(decoded.headers.fields.map(\.name) == ["Vary", "ETag", "Vary"])
        }

        @Test("the byte count is the body plus every header name and value")
        func byteCount() {
            let response = StoredResponse(statusCode: 200, headers: ["ETag": "abc"], body: Data(count: 10))

            #expect(response.byteCount == 10 + 4 + 3)
        }

        @Test("the age is never negative")
        func ageIsNeverNegative() {
            let response = StoredResponse(statusCode: 200, storedAt: Date() + 60)

            #expect(response.age() == .zero)
            #expect(response.age(at: response.storedAt + 2.5) == .seconds(2.5))
        }
    }
}
