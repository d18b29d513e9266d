import ECNetworking
import Foundation
import TestSupport

/// Adds a bearer token, the way an authentication action does.
struct AddToken: RequestWillBeginAction {
    let token: String

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}

/// Asks for a retry whenever the response has `status`.
struct RetryOnStatus: ResponseCompletedAction {
    let status: Int

    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        response.statusCode == status ? .retry : .proceed(response)
    }
}
