import Foundation

/// Issues bearer tokens and tells whether a presented token is still valid.
actor TokenStore {
    /// The outcome of checking a presented token.
    enum Validity: Equatable {
        case valid
        case unknown
        case expired
    }

    private let lifetime: Duration
    private let clock = ContinuousClock()
    private var expiryByToken: [String: ContinuousClock.Instant] = [:]

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    func issue() -> Token {
        let token = UUID().uuidString.lowercased()
        expiryByToken[token] = clock.now.advanced(by: lifetime)
        return Token(token: token, expiresIn: Int(lifetime.components.seconds))
    }

    func validity(of token: String) -> Validity {
        guard let expiry = expiryByToken[token] else {
            return .unknown
        }
        return clock.now < expiry ? .valid : .expired
    }
}
