#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// A request body as ``URLSessionTransport`` sends it on Linux: a file's or the bytes of a
    /// data body (a gathered stream's included), given to the session by the library itself,
    /// through an `InputStream` of its own, with its `Content-Length`.
    ///
    /// Not an upload task's file, which FoundationNetworking reads itself (`_BodyFileSource`): that
    /// reader pauses libcurl while it waits for the disk and resumes it from a dispatch handler
    /// (`unpauseSend()`, a `try!` in `EasyHandle.swift`), which stops the process with libcurl's code
    /// 43 when the transfer has ended meanwhile, as a cancelled upload to a server that stopped
    /// reading has; and it sends whatever the file holds when it reads it, past the `Content-Length`
    /// of a file that grew, short of one that shrank. A stream is read inside libcurl's own read
    /// callback and never pauses it, so nothing resumes an ended transfer; and this one gives out
    /// exactly `length` bytes, and stops the transfer the moment the file's size is no longer
    /// `length`, with the error the send then ends with (``failure``).
    ///
    /// Nor a data body (`httpBody`), which FoundationNetworking cannot send again: when libcurl sends
    /// the request again on a fresh connection (the kept-alive one it reused closed before a byte of
    /// the answer), the rewind of such a body does nothing, the head goes out again without its body,
    /// and the send waits for its deadline. A body of the library's own is asked for again from the
    /// session's delegate (``resentBody(method:)``).
    ///
    /// FoundationNetworking sends a body read from a stream chunked (it gives libcurl no length:
    /// `set(requestBodyLength: .unknown)` in `HTTPURLProtocol.swift`), which S3's pre-signed PUTs
    /// and other upload endpoints refuse with 411. libcurl chunks such a body only when the request
    /// names no `Transfer-Encoding` of its own (`Curl_checkheaders` in `http.c`, the same from 7.x to
    /// 8.x); a blank value is one libcurl never sends (`Curl_add_custom_headers` skips a header with
    /// nothing after its colon). So the request carries `Transfer-Encoding` blank and the body's
    /// `Content-Length`: libcurl sends the head as given and the stream's bytes as they are, up to
    /// its end.
    final class OwnedRequestBody: Sendable {
        /// Where the bytes come from.
        enum Source {
            /// The file at the URL, read a chunk at a time.
            case file(URL)
            /// Bytes in memory.
            case bytes(Data)
        }

        let source: Source
        /// The body's length, sent as `Content-Length`: a file's size when the request was made.
        let length: Int
        private let stopped = InlineLockedState<NetworkError?>(nil)

        /// The file at `url`, `length` bytes long.
        init(file url: URL, length: Int) {
            source = .file(url)
            self.length = length
        }

        /// `data`, in memory.
        init(bytes data: Data) {
            source = .bytes(data)
            length = data.count
        }

        /// The bytes `request` carries as its `httpBody`; `nil` when it carries none.
        convenience init?(bytesOf request: URLRequest) {
            guard let data = request.httpBody, !data.isEmpty else { return nil }
            self.init(bytes: data)
        }

        /// Why the body was stopped (the file changed size or could not be read), once it was: the
        /// send's error, where FoundationNetworking says only that a callback aborted the transfer.
        var failure: NetworkError? {
            stopped.withLock { $0 }
        }

        fileprivate func stop(with error: NetworkError) {
            stopped.withLock { if $0 == nil { $0 = error } }
        }

        /// `request` sending this body, from a stream of its own.
        func attached(to request: URLRequest) -> URLRequest {
            var request = request
            request.httpBody = nil
            request.httpBodyStream = makeStream()
            // The length read when the request was made, whatever a header said: the stream gives
            // out exactly that many bytes.
            request.setValue(String(length), forHTTPHeaderField: "Content-Length")
            // Blank: libcurl then neither chunks the body nor sends the field (see the type's comment).
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
            return request
        }

        /// A stream of the body from its start.
        func makeStream() -> InputStream {
            switch source {
            case .file(let url): FileBodyStream(self, file: url)
            case .bytes(let data): DataBodyStream(self, data: data)
            }
        }

        /// The body for libcurl sending the request again on a fresh connection, after the one it
        /// reused closed before a byte of the answer (it asks the session's delegate for a new
        /// stream, see ``TransportDelegate``): the body from its start for an idempotent method.
        /// Any other may have reached the server, which a second copy could act on twice, so its
        /// body stops the transfer at once, as a lost connection the request may have gone out
        /// on, as `AsyncHTTPClientTransport` reports it; libcurl has by then sent the head again,
        /// but never the body after it.
        /// The body whose stream `stream` is, when it is one of these bodies' streams.
        static func owner(of stream: InputStream?) -> OwnedRequestBody? {
            (stream as? OwnedBodyStream)?.body
        }

        func resentBody(method: HTTPMethod) -> InputStream {
            if !method.isIdempotent { stop(with: .transport(URLError(.networkConnectionLost))) }
            return makeStream()
        }
    }

    /// The stream of an ``OwnedRequestBody``, as FoundationNetworking reads it: opened once, read
    /// on its own queue in libcurl's read callback, one chunk (at most libcurl's 64 KiB upload
    /// buffer) at a time, so memory stays flat whatever the body's size. A subclass says where the
    /// bytes come from (``begin()``, ``next(into:upTo:)``, ``end()``).
    private class OwnedBodyStream: InputStream {
        let body: OwnedRequestBody
        /// How many bytes have gone.
        var sent = 0
        private var status = Stream.Status.notOpen

        init(_ body: OwnedRequestBody) {
            self.body = body
            // Any designated initializer: every method that reads the bytes is overridden.
            super.init(data: Data())
        }

        /// Gets the bytes ready; `false`, with the body stopped, when they cannot be read.
        func begin() -> Bool { true }

        /// Up to `count` of the bytes still to send, into `buffer` (0 when `count` is 0, at their
        /// end); -1, with the body stopped, when they cannot be read.
        func next(into buffer: UnsafeMutablePointer<UInt8>, upTo count: Int) -> Int { 0 }

        /// Lets go of what ``begin()`` took.
        func end() {}

        override func open() {
            // Opened once: FoundationNetworking opens a stream it was handed back for a rewind
            // twice (once to seek, once for its body source). A body already stopped gives
            // nothing more: read says so.
            guard status == .notOpen else { return }
            status = body.failure == nil && begin() ? .open : .error
        }

        override func close() {
            end()
            status = .closed
        }

        /// Reads on as long as the stream is neither at its end nor closed: a stream that failed
        /// says so from ``read(_:maxLength:)``, which FoundationNetworking calls only when this is
        /// true, and which then stops the transfer (a stream with no bytes available only ends it).
        ///
        /// At its end too, for a body of some bytes: libcurl never reads a body again once it had
        /// its end, unless it sends the request again, and then FoundationNetworking swaps in the
        /// stream the session's delegate gives (``OwnedRequestBody/resentBody(method:)``). Read
        /// again, this stream would end the new body at once, and its head, which promises the
        /// bytes, would leave the server waiting for them until the send's deadline; the read
        /// stops the transfer instead.
        override var hasBytesAvailable: Bool {
            status == .open || status == .error || isEndedBody
        }

        /// Whether the stream gave out all of a body of some bytes: read again, the request is
        /// going out again without them (see ``hasBytesAvailable``).
        private var isEndedBody: Bool {
            status == .atEnd && body.length > 0
        }

        override var streamStatus: Stream.Status {
            status
        }

        override var streamError: (any Error)? {
            body.failure
        }

        override func getBuffer(
            _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
        ) -> Bool {
            false
        }

        /// Up to `len` of the bytes still to send; 0 once `length` have gone; -1, which stops the
        /// transfer, once the body was stopped, or when a body of some bytes is read again after
        /// its end (see ``hasBytesAvailable``): the request went out again without its body from
        /// the start, so the send fails at once as a lost connection.
        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
            if isEndedBody {
                body.stop(with: .transport(URLError(.networkConnectionLost)))
                status = .error
                return -1
            }
            guard status == .open else { return status == .atEnd ? 0 : -1 }
            // Asked at the end too, so that a file that changed size just then still fails.
            let count = next(into: buffer, upTo: min(len, body.length - sent))
            if count > 0 {
                sent += count
            } else {
                status = count == 0 ? .atEnd : .error
                end()
            }
            return count
        }
    }

    /// A file's bytes: exactly `length` of them, or an error. The file's size is checked before
    /// every read, so a file that grows or shrinks stops the body at once, and never a byte past
    /// `length` goes out. A local file's read does not wait on anything but the disk, unlike a
    /// stream fed from an async sequence, which would have to block the session's queue (see
    /// `URLRequest.sending`); the file is opened without blocking, so a FIFO swapped in for it
    /// cannot hold that queue.
    private final class FileBodyStream: OwnedBodyStream {
        private let url: URL
        private var descriptor: Int32 = -1

        init(_ body: OwnedRequestBody, file url: URL) {
            self.url = url
            super.init(body)
        }

        deinit {
            end()
        }

        override func begin() -> Bool {
            descriptor = FileSystemCalls.openRegularFile(atPath: url.path) ?? -1
            guard descriptor >= 0 else {
                _ = fail(because: "could not be read")
                return false
            }
            return true
        }

        override func next(into buffer: UnsafeMutablePointer<UInt8>, upTo count: Int) -> Int {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return fail(because: "could not be read") }
            guard Int(info.st_size) == body.length else { return fail(because: "changed size while it was sent") }
            guard count > 0 else { return 0 }
            while true {
                let read = readFile(descriptor, into: buffer, upTo: count)
                if read > 0 { return read }
                // The file ended before `length`: it shrank after the size was read.
                if read == 0 { return fail(because: "changed size while it was sent") }
                if errno != EINTR { return fail(because: "could not be read") }
            }
        }

        override func end() {
            if descriptor >= 0 { closeDescriptor(descriptor) }
            descriptor = -1
        }

        /// Stops the body with an error saying the file `problem`; returns -1, which stops the
        /// transfer.
        private func fail(because problem: String) -> Int {
            body.stop(with: .invalidRequest(reason: "the body file \"\(url.lastPathComponent)\" \(problem)"))
            end()
            return -1
        }
    }

    /// Bytes in memory, a chunk at a time.
    private final class DataBodyStream: OwnedBodyStream {
        private let data: Data

        init(_ body: OwnedRequestBody, data: Data) {
            self.data = data
            super.init(body)
        }

        override func next(into buffer: UnsafeMutablePointer<UInt8>, upTo count: Int) -> Int {
            let start = data.index(data.startIndex, offsetBy: sent)
            data.copyBytes(to: buffer, from: start..<data.index(start, offsetBy: count))
            return count
        }
    }

    // The system calls, named apart: inside the stream, `open`, `read` and `close` are its own
    // methods.

    private func readFile(_ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, upTo count: Int) -> Int {
        read(descriptor, buffer, count)
    }

    private func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
#endif
