import Foundation

extension NetworkResponse {
    /// This head with `body` still to come, read as it arrives: what a test double hands a
    /// ``Network`` that streams through the protocol's default `stream`, so that a stream, a
    /// download or an event subscription gets its chunks as `body` yields them (with its pauses
    /// and its failure) rather than whole.
    package func streaming(_ body: ByteStream) -> NetworkResponse {
        var head = self
        head.body = Data()
        head.unreadBody = StreamedBody(BodyRelay(body))
        return head
    }
}
