/// The reply of `POST /upload/form`: every part of the form, in the order it arrived.
public struct FormUploadReceipt: Codable, Sendable, Equatable {
    /// The parts, in order.
    public var parts: [ReceivedPart]

    /// Creates a receipt of `parts`.
    public init(parts: [ReceivedPart]) {
        self.parts = parts
    }

    /// The first part named `name`.
    public func part(named name: String) -> ReceivedPart? {
        parts.first { $0.name == name }
    }
}
