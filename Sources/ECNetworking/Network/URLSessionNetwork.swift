/// ECNetworking's name for ``HTTPNetwork``, kept so that code written for it compiles and means
/// the same: `URLSessionNetwork(configuration:)` sends through a `URLSession`, as it always did.
///
/// Over another transport, `HTTPNetwork(configuration:transport:)` says what it does; both names
/// denote one class, so a value of either type is the other.
public typealias URLSessionNetwork = HTTPNetwork
