import DemoServer
import ECNetworking
import Foundation

/// `POST /upload/form`: uploads a `multipart/form-data` form, which the server reads part by part
/// and describes in a ``FormUploadReceipt``.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Sunset", name: "caption")
/// form.append(fileAt: photoURL, name: "photo", contentType: "image/jpeg")
/// let receipt = try await client.send(FormUploadRequest(form: form))
/// ```
public struct FormUploadRequest: DemoRequest {
    /// What the server read.
    public typealias Response = FormUploadReceipt

    /// The form to upload; its files are read from disk only as they are sent.
    public let form: MultipartFormData

    /// Creates an upload of `form`.
    public init(form: MultipartFormData) {
        self.form = form
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `POST /upload/form` with the form as its body.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("upload/form"), body: .multipart(form))
    }
}
