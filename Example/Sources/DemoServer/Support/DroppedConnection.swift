/// Thrown by a body writer to end a response by closing its connection, as a crashing or
/// unplugged server would, instead of finishing the body.
struct DroppedConnection: Error {}
