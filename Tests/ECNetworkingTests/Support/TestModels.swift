import ECNetworking
import Foundation

struct User: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

let testBaseURL = URL(string: "https://api.example.com/v1")!
