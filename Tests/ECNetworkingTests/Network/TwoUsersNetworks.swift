import Foundation

@testable import ECNetworking

/// Runs `body` with two networks on the default transport, as two users of one app or server
/// would have them, and invalidates both afterwards, whether `body` threw or not: the tests that
/// check nothing of one user's (a cookie, a stored answer) reaches the other.
func withTwoUsersDefaultNetworks(
    baseURL: URL, _ body: (_ alice: URLSessionNetwork, _ bob: URLSessionNetwork) async throws -> Void
) async throws {
    let alice = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL))
    let bob = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL))
    defer {
        alice.invalidate()
        bob.invalidate()
    }
    try await body(alice, bob)
}
