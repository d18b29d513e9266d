// What AuthenticatingAction notes on a request so that it can recognise the same send on its next
// attempt: custom properties carry over to retries, while the action itself keeps no per-send state.

/// The generation of the credential applied to the request's latest attempt, or `nil` when the
/// action has not authenticated it. A 401 for an older generation than the current one means
/// someone else has already refreshed, so the request only needs to be sent again.
enum AppliedCredentialGeneration: CustomPropertyKey {
    static let defaultValue: Int? = nil
}

/// How many attempts of this send carried a newer credential than the attempt before. Once it is
/// not zero the send has been retried with a renewed credential, and a further rejection is final.
enum CredentialRenewalCount: CustomPropertyKey {
    static let defaultValue = 0
}
