/// One line of `GET /stream/tokens`: a word of the answer, as a language model streams its tokens.
public struct StreamToken: Codable, Sendable, Equatable {
    /// The token's position, from 0.
    public var index: Int
    /// The text of the token.
    public var token: String

    /// The words `GET /stream/tokens` sends as its tokens, in order, over again when more are
    /// asked for.
    public static let words = "ECNetworking reads this answer line by line while the server is still writing it"
        .split(separator: " ").map(String.init)

    /// Creates a token.
    public init(index: Int, token: String) {
        self.index = index
        self.token = token
    }
}
