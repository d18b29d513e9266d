import Foundation
internal import Hummingbird
internal import NIOCore

/// `GET /stream/tokens?count=N&intervalMs=D`: N lines of NDJSON (`application/x-ndjson`), one
/// ``StreamToken`` each, written D milliseconds apart: a slow stream, as a language model answers.
///
/// The words of ``sentence`` are the tokens, over again when N is larger. A client that goes away
/// before the last line is recorded (``RequestRecorder/abandonedStreams``).
struct TokenStreamRoutes {
    static let sentence = "ECNetworking reads this answer line by line while the server is still writing it"
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("stream/tokens") { request, _ in
            let words = Self.sentence.split(separator: " ").map(String.init)
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
