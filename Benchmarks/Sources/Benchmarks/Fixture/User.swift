/// One user of the JSON list every scenario serves and decodes: the same shape for the
/// hand-written client and the library, so both pay for the same decoding.
struct User: Codable, Sendable, Equatable {
    /// The user's number.
    var id: Int
    /// The display name.
    var name: String
    /// Whether the user is online; a `Bool` so decoding covers more than strings and numbers.
    var online: Bool
}
