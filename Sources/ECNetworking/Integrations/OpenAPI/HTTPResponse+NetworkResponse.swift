#if OpenAPI
    import HTTPTypes

    extension HTTPResponse {
        /// The generated client's view of `response`: its status and every header field in order,
        /// repeated names kept; a field whose name HTTP does not allow is left out.
        init(_ response: NetworkResponse) {
            var fields = HTTPFields()
            for field in response.headers.fields {
                guard let name = HTTPField.Name(field.name) else { continue }
                fields.append(HTTPField(name: name, value: field.value))
            }
            // A session never reports a status beyond three digits; the clamp keeps a hand-made
            // response from stopping the process in `Status(code:)`.
            let code = (0...999).contains(response.statusCode) ? response.statusCode : 0
            self.init(status: Status(code: code), headerFields: fields)
        }
    }
#endif
