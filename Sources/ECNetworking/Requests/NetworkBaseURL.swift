import Foundation

/// The base URL of the network sending a request, which ``AuthenticatingAction`` needs to keep its
/// credential on that server's origin.
///
/// ``HTTPNetwork`` (and `FakeNetwork`) set it on every request they send, overwriting any
/// value already there; a ``Network`` of your own that runs actions should set it too, or the
/// action applies its credential only to the origins it was given explicitly.
public enum NetworkBaseURL: CustomPropertyKey {
    /// No base URL known.
    public static let defaultValue: URL? = nil
}
