import Foundation
internal import Hummingbird
internal import NIOCore

/// `GET /stream/tokens?count=N&intervalMs=D`: N lines of NDJSON (`application/x-ndjson`), one
/// ``StreamToken`` each, written D milliseconds apart: a slow stream, as a language model answers.
///
/// The tokens are ``StreamToken/words``, over again when N is larger. A client that goes away
/// before the last line is recorded (``RequestRecorder/abandonedStreams``).
struct TokenStreamRoutes {
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("stream/tokens") { request, _ in
            let words = StreamToken.words
            let count = try request.integerQueryParameter("count", in: 0...100_000, default: words.count)
            let interval = try request.integerQueryParameter("intervalMs", in: 0...60_000, default: 100)
            let body = ResponseBody.streamed(path: request.uri.path, recorder: recorder) { writer in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                for index in 0..<count {
                    if index > 0 { try await Task.sleep(for: .milliseconds(interval)) }
                    var line = try encoder.encode(StreamToken(index: index, token: words[index % words.count]))
                    line.append(UInt8(ascii: "\n"))
                    try await writer.write(ByteBuffer(bytes: line))
                }
            }
            return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
        }
    }
}
