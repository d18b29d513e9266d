import ECNetworking
import Foundation

extension HTTPArchive {
    /// Where the HAR file `data` breaks HAR 1.2 as browsers' network panels read it, one line per
    /// violation (a JSON path and what is wrong there); empty when it follows it.
    ///
    /// It checks every object and field the HTTP Archive specification marks as required, with
    /// its type, the version (`1.2`), dates in ISO 8601 and timings that are not negative: what a
    /// browser needs to open the file. Check a recording before you commit it as a fixture:
    ///
    /// ```swift
    /// let violations = HTTPArchive.schemaViolations(in: try Data(contentsOf: recording))
    /// #expect(violations.isEmpty, "\(violations)")
    /// ```
    public static func schemaViolations(in data: Data) -> [String] {
        guard let json = try? JSONSerialization.jsonObject(with: data) else { return ["$: not JSON"] }
        return HARSchema.violations(of: json)
    }
}

/// HAR 1.2's rules (the HTTP Archive specification, as browsers' developer tools export it) as a
/// JSON Schema, and a checker for the part of JSON Schema it uses: `type`, `required`,
/// `properties`, `items`, `pattern` and `minimum`.
enum HARSchema {
    /// The schema: every object and field the specification marks as required, with its type.
    static let schemaText = #"""
        {
          "type": "object", "required": ["log"],
          "properties": {
            "log": {
              "type": "object", "required": ["version", "creator", "entries"],
              "properties": {
                "version": {"type": "string", "pattern": "^1\\.2$"},
                "creator": {"$ref": "creator"},
                "browser": {"$ref": "creator"},
                "entries": {"type": "array", "items": {"$ref": "entry"}}
              }
            }
          },
          "definitions": {
            "creator": {
              "type": "object", "required": ["name", "version"],
              "properties": {"name": {"type": "string"}, "version": {"type": "string"}}
            },
            "nameValue": {
              "type": "object", "required": ["name", "value"],
              "properties": {"name": {"type": "string"}, "value": {"type": "string"}}
            },
            "entry": {
              "type": "object",
              "required": ["startedDateTime", "time", "request", "response", "cache", "timings"],
              "properties": {
                "startedDateTime": {
                  "type": "string",
                  "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:?\\d{2})$"
                },
                "time": {"type": "number", "minimum": 0},
                "request": {"$ref": "request"},
                "response": {"$ref": "response"},
                "cache": {"type": "object"},
                "timings": {"$ref": "timings"}
              }
            },
            "request": {
              "type": "object",
              "required": ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"],
              "properties": {
                "method": {"type": "string"}, "url": {"type": "string"}, "httpVersion": {"type": "string"},
                "cookies": {"type": "array", "items": {"$ref": "nameValue"}},
                "headers": {"type": "array", "items": {"$ref": "nameValue"}},
                "queryString": {"type": "array", "items": {"$ref": "nameValue"}},
                "postData": {
                  "type": "object", "required": ["mimeType"],
                  "properties": {"mimeType": {"type": "string"}, "text": {"type": "string"}}
                },
                "headersSize": {"type": "integer"}, "bodySize": {"type": "integer"}
              }
            },
            "response": {
              "type": "object",
              "required": ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"],
              "properties": {
                "status": {"type": "integer"}, "statusText": {"type": "string"}, "httpVersion": {"type": "string"},
                "cookies": {"type": "array", "items": {"$ref": "nameValue"}},
                "headers": {"type": "array", "items": {"$ref": "nameValue"}},
                "content": {
                  "type": "object", "required": ["size", "mimeType"],
                  "properties": {
                    "size": {"type": "integer"}, "mimeType": {"type": "string"},
                    "text": {"type": "string"}, "encoding": {"type": "string"}
                  }
                },
                "redirectURL": {"type": "string"},
                "headersSize": {"type": "integer"}, "bodySize": {"type": "integer"}
              }
            },
            "timings": {
              "type": "object", "required": ["send", "wait", "receive"],
              "properties": {
                "blocked": {"type": "number", "minimum": -1}, "dns": {"type": "number", "minimum": -1},
                "connect": {"type": "number", "minimum": -1}, "ssl": {"type": "number", "minimum": -1},
                "send": {"type": "number", "minimum": 0}, "wait": {"type": "number", "minimum": 0},
                "receive": {"type": "number", "minimum": 0}
              }
            }
          }
        }
        """#

    /// Where `json` breaks the schema, one line per violation; empty when it follows it.
    static func violations(of json: Any) -> [String] {
        guard let schema = try? JSONSerialization.jsonObject(with: Data(schemaText.utf8)) as? [String: Any] else {
            return ["the schema does not parse"]
        }
        var found: [String] = []
        check(json, against: schema, root: schema, at: "$", into: &found)
        return found
    }

    private static func check(
        _ value: Any, against rule: [String: Any], root schema: [String: Any], at path: String,
        into found: inout [String]
    ) {
        if let reference = rule["$ref"] as? String {
            let definitions = schema["definitions"] as? [String: Any]
            guard let target = definitions?[reference] as? [String: Any] else {
                found.append("\(path): unknown definition \(reference)")
                return
            }
            return check(value, against: target, root: schema, at: path, into: &found)
        }
        if let type = rule["type"] as? String, !has(value, type: type) {
            found.append("\(path): expected \(type), found \(Swift.type(of: value))")
            return
        }
        if let pattern = rule["pattern"] as? String, let text = value as? String,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let minimum = rule["minimum"] as? Double, let number = (value as? NSNumber)?.doubleValue, number < minimum {
            found.append("\(path): \(number) is below \(minimum)")
        }
        if let object = value as? [String: Any] {
            for name in rule["required"] as? [String] ?? [] where object[name] == nil {
                found.append("\(path): \(name) is missing")
            }
            for (name, property) in rule["properties"] as? [String: Any] ?? [:] {
                if let field = object[name], let property = property as? [String: Any] {
                    check(field, against: property, root: schema, at: "\(path).\(name)", into: &found)
                }
            }
        }
        if let array = value as? [Any], let items = rule["items"] as? [String: Any] {
            for (index, item) in array.enumerated() {
                check(item, against: items, root: schema, at: "\(path)[\(index)]", into: &found)
            }
        }
    }

    private static func has(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "number", "integer":
            // JSONSerialization reads every number as an NSNumber; the archive has no Booleans.
            guard let number = value as? NSNumber, !(value is String) else { return false }
            return type == "number" || number.doubleValue == number.doubleValue.rounded()
        case "boolean": return value is Bool
        default: return false
        }
    }
}
