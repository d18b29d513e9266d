import Foundation

/// Parses HTTP dates (RFC 9110, section 5.6.7): the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms, rfc850-date
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime-date (`Sun Nov  6 08:49:37 1994`), as every
/// recipient must.
///
/// A server writes these (`Retry-After`, `Last-Modified`, `Date`, a cookie's `Expires`), so they
/// are read byte by byte, ASCII only, and anything else is `nil`. Foundation's `DateFormatter`,
/// used before, stopped the process on Linux when the text held a character outside ASCII
/// ("Incorrect range CFRange", found by the content-range fuzz target), and cost three formatters
/// a call.
///
/// Leniencies seen in the wild are accepted: day names short or long in either comma form, a
/// four-digit year with dashes (`Wed, 09-Jun-2021 10:18:14 GMT`), `UTC` for `GMT`, any run of
/// spaces between fields, and letters in any case. The day name is not checked against the date.
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(text)
        scanner.skipSpaces()
        guard scanner.dayName() else { return nil }
        let date = scanner.take(UInt8(ascii: ",")) ? scanner.afterComma() : scanner.asctime()
        scanner.skipSpaces()
        return scanner.isAtEnd ? date : nil
    }

    /// The seconds since 1970 of a date and time in GMT, or `nil` when a field is out of range.
    /// A leap second (`:60`) counts as the second before it, as POSIX time has no room for it.
    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + min(second, 59)))
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Counted from the 1st of March, so that a leap day ends its year (H. Hinnant's method).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A two-digit year as RFC 9110 reads it: the year with those last digits that is not more
    /// than 50 years in the future.
    static func fullYear(twoDigits: Int, now: Date = Date()) -> Int {
        // Within a day of the exact year, which is close enough for a 50-year window.
        let currentYear = 1970 + Int(now.timeIntervalSince1970 / 31_556_952)
        let year = currentYear - currentYear % 100 + twoDigits
        return year > currentYear + 50 ? year - 100 : year
    }

    private static let monthNames: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }
    /// `GMT` and the names that mean the same, lowercased.
    private static let zoneNames: [[UInt8]] = ["gmt", "utc", "ut"].map { Array($0.utf8) }
    private static let dayNames: [[UInt8]] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
    ].map { Array($0.utf8) }

    /// Reads the fields of an HTTP date from its bytes.
    private struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: String) {
            bytes = Array(text.utf8)
        }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }

        /// Takes `byte` if it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `, 06 Nov 1994 08:49:37 GMT` or `, 06-Nov-94 08:49:37 GMT` (or a four-digit year).
        mutating func afterComma() -> Date? {
            skipSpaces()
            guard let day = number(digits: 1...2) else { return nil }
            let dashed = take(UInt8(ascii: "-"))
            if !dashed { skipSpaces() }
            guard let month = month() else { return nil }
            if dashed {
                guard take(UInt8(ascii: "-")) else { return nil }
            } else {
                skipSpaces()
            }
            let start = index
            guard var year = number(digits: 2...4), index - start != 3 else { return nil }
            if index - start == 2 { year = HTTPDate.fullYear(twoDigits: year) }
            skipSpaces()
            guard let (hour, minute, second) = time() else { return nil }
            skipSpaces()
            guard zone() else { return nil }
            return HTTPDate.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }

        /// ` Nov  6 08:49:37 1994`.
        mutating func asctime() -> Date? {
            skipSpaces()
            guard let month = month() else { return nil }
            skipSpaces()
            guard let day = number(digits: 1...2) else { return nil }
            skipSpaces()
            guard let (hour, minute, second) = time() else { return nil }
            skipSpaces()
            let start = index
            guard let year = number(digits: 4...4), index - start == 4 else { return nil }
            return HTTPDate.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }

        /// A day's name, short or long.
        mutating func dayName() -> Bool {
            let word = letters()
            return HTTPDate.dayNames.contains(word)
        }

        /// A month's three-letter name, as 1 to 12.
        mutating func month() -> Int? {
            let word = letters()
            return HTTPDate.monthNames.firstIndex(of: word).map { $0 + 1 }
        }

        /// `GMT`, or `UTC` or `UT`, which mean the same.
        mutating func zone() -> Bool {
            let word = letters()
            return HTTPDate.zoneNames.contains(word)
        }

        /// `08:49:37`.
        mutating func time() -> (Int, Int, Int)? {
            guard let hour = number(digits: 2...2), take(UInt8(ascii: ":")), let minute = number(digits: 2...2),
                take(UInt8(ascii: ":")), let second = number(digits: 2...2)
            else { return nil }
            return (hour, minute, second)
        }

        /// A run of ASCII letters, lowercased.
        private mutating func letters() -> [UInt8] {
            var word: [UInt8] = []
            while index < bytes.count, word.count < 10 {
                let byte = bytes[index] | 0x20
                guard byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") else { break }
                word.append(byte)
                index += 1
            }
            return word
        }

        /// A decimal number of as many digits as `digits` allows, at least its lower bound.
        private mutating func number(digits: ClosedRange<Int>) -> Int? {
            var value = 0
            var count = 0
            while index < bytes.count, count < digits.upperBound, bytes[index] >= UInt8(ascii: "0"),
                bytes[index] <= UInt8(ascii: "9")
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                count += 1
                index += 1
            }
            return count >= digits.lowerBound ? value : nil
        }
    }
}
