import Foundation
internal import Hummingbird

extension Request {
    /// Whether a `GET` for a representation with these validators may be answered `304 Not Modified`,
    /// evaluated as RFC 9110 section 13.2.2 orders it: `If-None-Match` when the request has it, and
    /// only otherwise `If-Modified-Since`, because an `ETag` tells versions apart more precisely than
    /// a date to the second.
    func isNotModified(entityTag: String, lastModified: Date) -> Bool {
        let lists = headers[values: .ifNoneMatch]
        if !lists.isEmpty {
            return lists.contains { Self.list($0, matches: entityTag) }
        }
        guard let value = headers[.ifModifiedSince], let date = HTTPDate.date(from: value) else {
            return false
        }
        return lastModified <= date
    }

    /// Whether one `If-None-Match` value (`*` or a list of tags) names `entityTag`, by the weak
    /// comparison the RFC asks for here: a `W/` prefix on either side does not matter.
    ///
    /// The tags are found by their quotes rather than by splitting at commas, because a comma may
    /// appear inside a tag.
    private static func list(_ list: String, matches entityTag: String) -> Bool {
        if list.trimmingCharacters(in: .whitespaces) == "*" {
            return true
        }
        let wanted = entityTag.hasPrefix("W/") ? entityTag.dropFirst(2) : entityTag[...]
        var remaining = list[...]
        while let opening = remaining.firstIndex(of: "\"") {
            let afterOpening = remaining.index(after: opening)
            guard let closing = remaining[afterOpening...].firstIndex(of: "\"") else {
                return false
            }
            if remaining[opening...closing] == wanted {
                return true
            }
            remaining = remaining[remaining.index(after: closing)...]
        }
        return false
    }
}
