extension RequestBody: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of body and its size, never its content, such as `JSON of User`,
    /// `258 bytes of application/json`, `form fields username, password` or `file photo.jpg of image/jpeg`.
    public var description: String {
        switch content {
        case .json(let value, _):
            "JSON of \(type(of: value))"
        case .data(let data, let contentType):
            "\(data.count) bytes" + (contentType.map { " of \($0)" } ?? "")
        case .form(let fields):
            "form fields " + fields.map(\.name).joined(separator: ", ")
        case .text(let text, let contentType):
            "\(text.utf8.count) bytes of \(contentType)"
        case .file(let url, let contentType):
            "file \(url.lastPathComponent)" + (contentType.map { " of \($0)" } ?? "")
        case .stream(_, let length, let contentType):
            "stream" + (length.map { " of \($0) bytes" } ?? "") + (contentType.map { " of \($0)" } ?? "")
        case .multipart(let form):
            "multipart form of \(form.count) parts"
        }
    }

    /// The ``description`` with the type's name.
    public var debugDescription: String {
        "RequestBody(\(description))"
    }

    /// Only the ``description``, for `dump`: the content may hold secrets.
    public var customMirror: Mirror {
        Mirror(self, children: ["summary": description], displayStyle: .struct)
    }
}
