/// A header value of the form `value; name=parameter; name="quoted parameter"`, as `Content-Type`
/// and `Content-Disposition` carry them (RFC 9110 section 5.6.6).
struct HeaderParameters {
    /// The value before the first `;`, lower-cased, such as `multipart/form-data` or `form-data`.
    let value: String
    /// The parameters by lower-cased name; a quoted value without its quotes and escapes.
    let parameters: [String: String]

    /// Parses `header`; `nil` when a quoted string is not closed or a parameter has no `=`.
    init?(_ header: some StringProtocol) {
        var segments: [String] = []
        var segment = ""
        var isQuoted = false
        var isEscaped = false
        // Split at the semicolons outside quoted strings, keeping the quotes for the next step.
        for character in header {
            if isEscaped {
                segment.append(character)
                isEscaped = false
            } else if isQuoted && character == "\\" {
                segment.append(character)
                isEscaped = true
            } else if character == "\"" {
                segment.append(character)
                isQuoted.toggle()
            } else if character == ";" && !isQuoted {
                segments.append(segment)
                segment = ""
            } else {
                segment.append(character)
            }
        }
        guard !isQuoted else { return nil }
        segments.append(segment)

        value = segments[0].trimmingSpaces.lowercased()
        var parameters: [String: String] = [:]
        for parameter in segments.dropFirst() where !parameter.trimmingSpaces.isEmpty {
            guard let equals = parameter.firstIndex(of: "=") else { return nil }
            let name = parameter[..<equals].trimmingSpaces.lowercased()
            let rawValue = parameter[parameter.index(after: equals)...].trimmingSpaces
            parameters[name] = Self.unquoted(rawValue)
        }
        self.parameters = parameters
    }

    /// `text` without its surrounding quotes and with `\x` read as `x`; unquoted text as it is.
    private static func unquoted(_ text: Substring) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return String(text) }
        var result = ""
        var isEscaped = false
        for character in text.dropFirst().dropLast() {
            if !isEscaped && character == "\\" {
                isEscaped = true
            } else {
                result.append(character)
                isEscaped = false
            }
        }
        return result
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let text = self[...]
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return Substring() }
        return Substring(text[first...last])
    }
}
