/// A command line the program cannot act on; its message says what to change.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the command line.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
