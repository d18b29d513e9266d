import DemoServer
import Foundation
import Testing

@Suite("POST /upload/form")
struct FormUploadTests {
    static let boundary = "demo-boundary"

    /// A form as a browser would send it, with a preamble, a quoted boundary in the content type,
    /// a field, a file whose content contains CRLF and dashes, a part without a Content-Type, and
    /// an epilogue.
    static let form = [
        "This preamble is ignored.\r\n",
        "--demo-boundary\r\n",
        "Content-Disposition: form-data; name=\"caption\"\r\n",
        "\r\n",
        "Sunset; at the \"beach\"\r\n",
        "--demo-boundary  \r\n",
        "content-disposition: form-data; name=\"photo\"; filename=\"sun set.jpg\"\r\n",
        "Content-Type: image/jpeg\r\n",
        "\r\n",
        "\r\n--demo-boundar\r\n--\r\n",
        "--demo-boundary\r\n",
        "Content-Disposition: form-data; name=\"notes\"; filename=\"notes.txt\"\r\n",
        "\r\n",
        "\r\n",
        "--demo-boundary--\r\n",
        "This epilogue is ignored too.",
    ].joined()

    @Test func describesEveryPartInOrder() async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(
                "POST", "/upload/form",
                headers: ["Content-Type": "multipart/form-data; charset=utf-8; boundary=\"\(Self.boundary)\""],
                body: Data(Self.form.utf8))

            #expect(response.status == 200)
            let receipt = try response.decode(FormUploadReceipt.self)
            // The CRLF before each boundary belongs to the boundary, not to the content.
            let caption = "Sunset; at the \"beach\""
            let photo = Data("\r\n--demo-boundar\r\n--".utf8)
            #expect(
                receipt.parts == [
                    ReceivedPart(
                        name: "caption", byteCount: caption.utf8.count,
                        checksum: CRC32.checksum(of: Data(caption.utf8)),
                        value: caption),
                    ReceivedPart(
                        name: "photo", fileName: "sun set.jpg", contentType: "image/jpeg", byteCount: photo.count,
                        checksum: CRC32.checksum(of: photo)),
                    ReceivedPart(name: "notes", fileName: "notes.txt", byteCount: 0, checksum: 0),
                ])
        }
    }

    @Test func checksumIsTheStandardCRC32() {
        // The check value every CRC-32 implementation publishes.
        #expect(CRC32.checksum(of: Data("123456789".utf8)) == 0xCBF4_3926)
        var split = CRC32()
        split.update(with: Data("1234".utf8))
        split.update(with: Data("56789".utf8))
        #expect(split.value == 0xCBF4_3926)
    }

    @Test(
        "a malformed form is a 400",
        arguments: [
            // No closing boundary: the body was cut.
            "--demo-boundary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue",
            // No Content-Disposition.
            "--demo-boundary\r\nContent-Type: text/plain\r\n\r\nvalue\r\n--demo-boundary--",
            // A disposition without a name.
            "--demo-boundary\r\nContent-Disposition: form-data; filename=\"a.txt\"\r\n\r\nv\r\n--demo-boundary--",
            // Not form-data.
            "--demo-boundary\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--demo-boundary--",
            // A boundary line followed by something else than CRLF.
            "--demo-boundary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--demo-boundaryX\r\n",
            // An unclosed quoted name.
            "--demo-boundary\r\nContent-Disposition: form-data; name=\"a\r\n\r\nv\r\n--demo-boundary--",
            // A content type that is not type/subtype.
            "--demo-boundary\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: jpeg\r\n\r\nv\r\n--demo-boundary--",
            // No boundary at all.
            "just some bytes",
        ])
    func malformedFormIsBadRequest(body: String) async throws {
        try await withDemoServer { _, client in
            let response = try await client.send(
                "POST", "/upload/form", headers: ["Content-Type": "multipart/form-data; boundary=demo-boundary"],
                body: Data(body.utf8))

            #expect(response.status == 400)
            #expect(try response.decode(APIError.self).error == "bad_request")
        }
    }

    @Test func aFieldThatIsNotUTF8IsBadRequest() async throws {
        try await withDemoServer { _, client in
            var body = Data("--demo-boundary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8)
            body.append(contentsOf: [0xFF, 0xFE])
            body.append(Data("\r\n--demo-boundary--\r\n".utf8))
            let response = try await client.send(
                "POST", "/upload/form", headers: ["Content-Type": "multipart/form-data; boundary=demo-boundary"],
                body: body)

            #expect(response.status == 400)
        }
    }

    @Test func aBodyThatIsNotMultipartIsUnsupported() async throws {
        try await withDemoServer { _, client in
            let response = try await client.sendJSON("POST", "/upload/form", ["caption": "Sunset"])

            #expect(response.status == 415)
            #expect(try response.decode(APIError.self).error == "unsupported_media_type")
        }
    }
}
