// The dates a server writes: `Retry-After`, `Last-Modified` and `Date` (a download kept for a
// resume), a cookie's `Expires`, read by `HTTPDate`.
//
// Input: the text of one field value, as the server sent it (any bytes).
// Checks: a parsed date is a whole second between the years 0 and 9999; written back as an
// IMF-fixdate, the preferred form, it reads as the same instant; and the same text with spaces
// around it reads the same.

import Foundation

@testable import ECNetworking

enum HTTPDateTarget: FuzzTarget {
    static let name = "http-date"
    static let warmUp = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    static func run(_ input: [UInt8]) {
        let value = text(input)
        guard let date = HTTPDate.parse(value) else { return }
        let seconds = date.timeIntervalSince1970
        check(seconds == seconds.rounded(), "\(value.debugDescription) read as a fraction of a second: \(seconds)")
        check(
            seconds >= -62_167_219_200 && seconds < 253_402_300_800,
            "\(value.debugDescription) read outside the years 0 to 9999: \(seconds)")
        let preferred = imfFixdate(seconds: Int(seconds))
        check(
            HTTPDate.parse(preferred) == date,
            "\(value.debugDescription) read as \(preferred), which reads as \(String(describing: HTTPDate.parse(preferred)))"
        )
        check(HTTPDate.parse("  \(value)  ") == date, "\(value.debugDescription) reads otherwise with spaces around it")
    }

    /// `seconds` since 1970 as an IMF-fixdate, computed without Foundation's calendar.
    private static func imfFixdate(seconds: Int) -> String {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970 (H. Hinnant's method).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = dayNames[((days % 7) + 7) % 7]
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(yearText) "
            + "\(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60)) GMT"
    }
}
