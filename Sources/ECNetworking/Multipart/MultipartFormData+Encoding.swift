import Foundation

extension MultipartFormData {
    /// The body as the transport sends it: bytes when it is at most ``memoryThreshold`` long, a
    /// temporary file otherwise, which `temporaryFile` removes when the last reference to it goes.
    ///
    /// Synchronous file I/O: ``EncodedMultipartBody`` calls it off the concurrency runtime's
    /// threads. `isCancelled` is asked between chunks, so a cancelled send stops writing soon.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for an invalid boundary, a part whose
    ///   file cannot be read or changes size while it is read, or a temporary file that cannot be
    ///   written; ``NetworkError/cancelled`` once `isCancelled` says so.
    func transportBody(
        isCancelled: () -> Bool = { false }
    ) throws -> (body: TransportRequestBody, temporaryFile: TemporaryFile?) {
        try transportBody(contentLengths: parts.map { try $0.contentLength() }, isCancelled: isCancelled)
    }

    /// ``transportBody(isCancelled:)`` with each part's length measured already: the
    /// `Content-Length` is fixed by them, so a file that no longer has its measured size fails the
    /// encoding.
    func transportBody(
        contentLengths: [Int], isCancelled: () -> Bool = { false }
    ) throws -> (body: TransportRequestBody, temporaryFile: TemporaryFile?) {
        try validateBoundary()
        var length = Data("--\(boundary)--\r\n".utf8).count
        for (part, contentLength) in zip(parts, contentLengths) {
            length +=
                try part.head(boundary: boundary, extendedFileName: sendsExtendedFileNames).count + contentLength + 2
        }
        guard length > memoryThreshold else {
            return (.bytes(try encodedInMemory(contentLengths: contentLengths)), nil)
        }
        let (file, handle) = try TemporaryFile.create(prefix: "ECNetworking-multipart")
        try write(to: handle, contentLengths: contentLengths, isCancelled: isCancelled)
        return (try TransportRequestBody.file(at: file.url), file)
    }

    /// The whole body in memory, files read whole.
    func encodedInMemory() throws -> Data {
        try encodedInMemory(contentLengths: parts.map { try $0.contentLength() })
    }

    private func encodedInMemory(contentLengths: [Int]) throws -> Data {
        try validateBoundary()
        var data = Data()
        for (part, expected) in zip(parts, contentLengths) {
            data.append(try part.head(boundary: boundary, extendedFileName: sendsExtendedFileNames))
            switch part.source {
            case .data(let content):
                data.append(content)
            case .file(let url):
                let content = try Self.read { try Data(contentsOf: url) }
                guard content.count == expected else { throw Self.changedSize(url) }
                data.append(content)
            }
            data.append(Self.lineBreak)
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }

    /// Writes the body to `output`, copying each file a chunk at a time, and closes it.
    private func write(to output: FileHandle, contentLengths: [Int], isCancelled: () -> Bool) throws {
        defer { try? output.close() }
        do {
            for (part, expected) in zip(parts, contentLengths) {
                try output.write(
                    contentsOf: try part.head(boundary: boundary, extendedFileName: sendsExtendedFileNames))
                switch part.source {
                case .data(let content):
                    try output.write(contentsOf: content)
                case .file(let file):
                    try copy(file, expectedLength: expected, to: output, isCancelled: isCancelled)
                }
                try output.write(contentsOf: Self.lineBreak)
            }
            try output.write(contentsOf: Data("--\(boundary)--\r\n".utf8))
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.invalidRequest(reason: "the multipart body could not be written to a temporary file")
        }
    }

    private func copy(_ file: URL, expectedLength: Int, to output: FileHandle, isCancelled: () -> Bool) throws {
        let input = try Self.read { try FileHandle(forReadingFrom: file) }
        defer { try? input.close() }
        var copied = 0
        while true {
            if isCancelled() { throw NetworkError.cancelled }
            let chunk = try Self.read { try input.read(upToCount: 64 * 1024) }
            guard let chunk, !chunk.isEmpty else { break }
            copied += chunk.count
            // Stop early rather than copy a file that keeps growing.
            guard copied <= expectedLength else { throw Self.changedSize(file) }
            try output.write(contentsOf: chunk)
        }
        guard copied == expectedLength else { throw Self.changedSize(file) }
    }

    /// Checks the boundary against RFC 2046's grammar, so a boundary from a test cannot break the body.
    private func validateBoundary() throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? ".unicodeScalars)
        guard (1...70).contains(boundary.unicodeScalars.count),
            boundary.unicodeScalars.allSatisfy(allowed.contains), boundary.last != " "
        else {
            throw NetworkError.invalidRequest(reason: "\"\(boundary)\" is not a valid multipart boundary")
        }
    }

    private static let lineBreak = Data("\r\n".utf8)

    /// Runs a file operation, turning its error into the typed one a send fails with.
    private static func read<Value>(_ operation: () throws -> Value) throws -> Value {
        do {
            return try operation()
        } catch {
            throw NetworkError.invalidRequest(reason: "a multipart part's file could not be read")
        }
    }

    private static func changedSize(_ url: URL) -> NetworkError {
        .invalidRequest(reason: "the multipart part's file \"\(url.lastPathComponent)\" changed size while it was read")
    }
}
