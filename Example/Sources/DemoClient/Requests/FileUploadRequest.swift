import DemoServer
import ECNetworking
import Foundation

/// `POST /upload`: uploads a file as the whole body, read from disk as it is sent, and receives
/// the number of bytes the server counted.
public struct FileUploadRequest: DemoRequest {
    /// What the server counted.
    public typealias Response = UploadReceipt

    /// The `file:` URL of the file to upload.
    public let file: URL

    /// Creates an upload of the file at `file`.
    public init(file: URL) {
        self.file = file
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `POST /upload` with the file as an `application/octet-stream` body and its size as
    /// `Content-Length`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("upload"), body: .file(at: file))
    }
}
