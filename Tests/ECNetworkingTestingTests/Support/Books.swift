import ECNetworking
import Foundation

// The endpoints most tests send. The README example files declare their own types, so these use
// other names.

struct Book: Codable, Equatable, Sendable {
    var id: Int
    var title: String
}

let testBaseURL = URL(string: "https://api.example.com/v1")!

struct ListBooksRequest: Request {
    typealias Response = [Book]
    var genre: String = "fiction"

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("books"))
        request.queryItems = [URLQueryItem(name: "genre", value: genre)]
        return request
    }
}

struct GetBookRequest: Request {
    typealias Response = Book
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("books/\(id)"))
    }
}

struct CreateBookRequest: Request {
    typealias Response = Book
    let title: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("books"), body: ["title": title])
    }
}

struct DeleteBookRequest: Request {
    typealias Response = Void
    let id: Int

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        guard id > 0 else { throw NetworkError.invalidRequest(reason: "book ids start at 1") }
        return NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("books/\(id)"))
    }
}

/// Accepts a 404 as an answer ("no cover yet") and reads the status itself.
struct BookCoverRequest: Request {
    typealias Response = Data?
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("books/\(id)/cover"))
        request.acceptableStatusCodes = [200, 404]
        return request
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Data? {
        response.statusCode == 404 ? nil : response.body
    }
}

/// An error with an identity, to check that one passes through unchanged.
struct TestError: Error, Equatable {
    var code = 1
}
