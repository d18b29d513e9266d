import Foundation
import Testing

@testable import ECNetworking

/// What makes a body resumable, and how the `Content-Range` of a `206` or `416` is read.
@Suite("Download resumption: validators and Content-Range")
struct DownloadResumptionTests {
    private func response(_ headers: [String: String], status: Int = 200) -> NetworkResponse {
        NetworkResponse(statusCode: status, headers: HTTPHeaders(headers), body: Data())
    }

    @Test(
        "Content-Range fields a server may send are read exactly",
        arguments: [
            ("bytes 0-9/10", ContentRange?(ContentRange(first: 0, last: 9, completeLength: 10))),
            ("bytes 100-199/*", ContentRange(first: 100, last: 199, completeLength: nil)),
            ("BYTES 5-5/6", ContentRange(first: 5, last: 5, completeLength: 6)),
            ("bytes */1000", ContentRange(first: nil, last: nil, completeLength: 1000)),
            (" bytes 0-0/1 ", ContentRange(first: 0, last: 0, completeLength: 1)),
            (
                "bytes 9223372036854775806-9223372036854775806/*",
                ContentRange(first: 9_223_372_036_854_775_806, last: 9_223_372_036_854_775_806, completeLength: nil)
            ),
        ])
    func parses(_ field: String, _ expected: ContentRange?) {
        #expect(ContentRange(field) == expected)
    }

    @Test(
        "malformed, reversed, out-of-length or overflowing ranges are refused",
        arguments: [
            "", "bytes", "bytes ", "bytes 0-9", "bytes 9-0/10", "bytes 0-10/10", "bytes -1-9/10", "bytes 0-9/-1",
            "bytes */*", "bytes 0-9/10/11", "items 0-9/10", "bytes 0- 9/10", "bytes +0-9/10", "bytes 0x0-9/10",
            "bytes 99999999999999999999-1/*", "bytes 0-9223372036854775808/*", "bytes 1-2-3/4", "bytes ٣-4/5",
        ])
    func refuses(_ field: String) {
        #expect(ContentRange(field) == nil)
    }

    @Test("a strong ETag is the validator; a weak one, an encoded body or Accept-Ranges: none make none")
    func validators() {
        #expect(DownloadResumption.validator(of: response(["ETag": "\"abc\""])) == "\"abc\"")
        #expect(DownloadResumption.validator(of: response(["ETag": "W/\"abc\""])) == nil)
        #expect(DownloadResumption.validator(of: response(["ETag": "abc"])) == nil)
        #expect(DownloadResumption.validator(of: response(["ETag": "\"a\"b\""])) == nil)
        #expect(DownloadResumption.validator(of: response(["ETag": "\"abc\"", "Content-Encoding": "gzip"])) == nil)
        #expect(
            DownloadResumption.validator(of: response(["ETag": "\"abc\"", "Content-Encoding": "identity"])) == "\"abc\""
        )
        #expect(DownloadResumption.validator(of: response(["ETag": "\"abc\"", "Accept-Ranges": "none"])) == nil)
        #expect(DownloadResumption.validator(of: response([:])) == nil)
    }

    @Test("Last-Modified is a validator only when the response's Date is a minute or more later")
    func lastModified() {
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(
            DownloadResumption.validator(
                of: response(["Last-Modified": modified, "Date": "Sun, 06 Nov 1994 08:50:37 GMT"]))
                == modified)
        #expect(
            DownloadResumption.validator(
                of: response(["Last-Modified": modified, "Date": "Sun, 06 Nov 1994 08:50:36 GMT"]))
                == nil)
        #expect(DownloadResumption.validator(of: response(["Last-Modified": modified])) == nil)
        #expect(DownloadResumption.validator(of: response(["Last-Modified": "yesterday", "Date": modified])) == nil)
    }

    @Test("a validator read back from stored resume data must be one the library could have kept")
    func usableValidators() {
        #expect(DownloadResumption.isUsable("\"v1\""))
        #expect(DownloadResumption.isUsable("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(!DownloadResumption.isUsable("\"v1\"\r\nX-Injected: 1"))
        #expect(!DownloadResumption.isUsable("Sun, 06 Nov 1994 08:49:37 GMT\r\nX: 1"))
        #expect(!DownloadResumption.isUsable("W/\"v1\""))
        #expect(!DownloadResumption.isUsable(""))
    }

    @Test("a 206 answers a resumption when its range starts at the offset, its ETag is unchanged and it is not encoded")
    func answers() {
        let resumption = DownloadResumption(offset: 10, validator: "\"v1\"")
        #expect(
            resumption.isAnsweredBy(
                response(["Content-Range": "bytes 10-19/20", "ETag": "\"v1\""], status: 206), expectedByteCount: nil))
        #expect(
            resumption.isAnsweredBy(response(["Content-Range": "bytes 10-19/20"], status: 206), expectedByteCount: nil))
        #expect(
            !resumption.isAnsweredBy(
                response(["Content-Range": "bytes 0-19/20", "ETag": "\"v1\""], status: 206), expectedByteCount: nil))
        #expect(
            !resumption.isAnsweredBy(
                response(["Content-Range": "bytes 10-19/20", "ETag": "\"v2\""], status: 206), expectedByteCount: nil))
        #expect(
            !resumption.isAnsweredBy(
                response(["Content-Range": "bytes 10-19/20", "Content-Encoding": "gzip"], status: 206),
                expectedByteCount: nil))
        #expect(!resumption.isAnsweredBy(response([:], status: 206), expectedByteCount: nil))
        // An open range must reach the length the first answer gave, when it gave one.
        let open = response(["Content-Range": "bytes 10-19/*"], status: 206)
        #expect(resumption.isAnsweredBy(open, expectedByteCount: 20))
        #expect(resumption.isAnsweredBy(open, expectedByteCount: nil))
        #expect(!resumption.isAnsweredBy(open, expectedByteCount: 30))
        // A complete length the range names wins over the first answer's.
        #expect(
            !resumption.isAnsweredBy(response(["Content-Range": "bytes 10-19/30"], status: 206), expectedByteCount: 20))

        var request = NetworkRequest(url: URL(string: "https://example.com/file")!)
        resumption.apply(to: &request)
        #expect(request.headers["Range"] == "bytes=10-")
        #expect(request.headers["If-Range"] == "\"v1\"")
    }
}
