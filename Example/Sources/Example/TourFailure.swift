/// A tour step that did not behave as the library promises; the message says what differed.
struct TourFailure: Error, CustomStringConvertible {
    /// What was expected and what happened instead.
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// Throws a failure with `message` unless `condition` holds.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(TourFailure) {
        if !condition { throw TourFailure(message()) }
    }
}
