import ECNetworking

/// A will-begin action that adds one header, the typical cheap action (an API key, a user agent).
struct HeaderAction: RequestWillBeginAction {
    /// The header's name.
    let name: String
    /// The header's value.
    let value: String

    /// Returns the request with the header added.
    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers.add(name: name, value: value)
        return request
    }
}

/// A completed action that lets every response through unchanged: the cost of the stage itself.
struct PassThroughAction: ResponseCompletedAction {
    /// Proceeds with the response as it came.
    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        .proceed(response)
    }
}

/// The action sets the scenarios install: header actions and pass-through actions alternating,
/// so every count exercises both the will-begin and the completed stage.
enum BenchmarkActions {
    /// `count` actions: a ``HeaderAction`` at every even index, a ``PassThroughAction`` at every odd one.
    static func make(count: Int) -> [any Action] {
        (0..<count).map { index -> any Action in
            if index.isMultiple(of: 2) {
                return HeaderAction(name: headerName(index / 2), value: "1")
            }
            return PassThroughAction()
        }
    }

    /// The headers the actions of ``make(count:)`` add, in order, for the hand-written client
    /// to send the same request.
    static func headers(forActionCount count: Int) -> [(name: String, value: String)] {
        (0..<(count + 1) / 2).map { (headerName($0), "1") }
    }

    private static func headerName(_ number: Int) -> String {
        "X-Benchmark-\(number)"
    }
}
