import Foundation
import Testing

@testable import DemoServer

@Suite("Reading a form a chunk at a time")
struct MultipartFormReaderTests {
    @Test("every split of the body into two chunks reads the same parts as the whole body")
    func everySplitReadsTheSameParts() throws {
        let body = Array(FormUploadTests.form.utf8)
        var whole = MultipartFormReader(boundary: FormUploadTests.boundary)
        try whole.read(body)
        let expected = try whole.finish()
        #expect(expected.map(\.name) == ["caption", "photo", "notes"])

        for split in 0...body.count {
            var reader = MultipartFormReader(boundary: FormUploadTests.boundary)
            try reader.read(body[..<split])
            try reader.read(body[split...])
            #expect(try reader.finish() == expected, "split at byte \(split)")
        }
    }

    @Test("a body read one byte at a time reads the same parts")
    func oneByteAtATime() throws {
        let body = Array(FormUploadTests.form.utf8)
        var whole = MultipartFormReader(boundary: FormUploadTests.boundary)
        try whole.read(body)
        var reader = MultipartFormReader(boundary: FormUploadTests.boundary)
        for byte in body {
            try reader.read(CollectionOfOne(byte))
        }
        #expect(try reader.finish() == whole.finish())
    }

    @Test("a file's content is counted, never kept: a megabyte part leaves the reader holding a few bytes")
    func fileContentIsNotKept() throws {
        var reader = MultipartFormReader(boundary: "b")
        try reader.read(Array("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n".utf8))
        let chunk = [UInt8](repeating: 0x2D, count: 65_536)
        for _ in 0..<16 {
            try reader.read(chunk)
            #expect(reader.pendingByteCount < 8)
        }
        try reader.read(Array("\r\n--b--".utf8))
        let parts = try reader.finish()
        #expect(parts.count == 1)
        #expect(parts.first?.byteCount == 16 * 65_536)
        #expect(parts.first?.value == nil)
    }
}
