import Foundation

/// Dates in the form HTTP headers use (RFC 9110 section 5.6.7), such as
/// `Sun, 06 Nov 1994 08:49:37 GMT`, for `Last-Modified` and `If-Modified-Since`.
enum HTTPDate {
    /// `date` as an HTTP date; fractions of a second are dropped.
    static func string(from date: Date) -> String {
        formatter().string(from: date)
    }

    /// The date `text` names, or `nil` when it is not an HTTP date in the preferred form. The two
    /// obsolete forms are not read: a client only echoes the `Last-Modified` it was sent, and an
    /// unreadable `If-Modified-Since` is ignored, as the RFC requires, which costs a full answer at worst.
    static func date(from text: String) -> Date? {
        formatter().date(from: text)
    }

    /// A new formatter for each call, because a shared one would need a lock to be safe across the
    /// server's threads, and a catalog request is no hot path.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        // The POSIX locale keeps English day and month names whatever the machine's language.
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
