import Foundation
import Testing

@testable import ECNetworking

/// HTTP dates as servers write them, in all three forms RFC 9110 names, and text a server could
/// send that is no date at all: `nil`, never a crash.
@Suite("HTTP dates")
struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's own example.
    private let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(
        "the three forms of RFC 9110 read as the same instant",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            // Leniencies seen in the wild.
            "sun, 06 nov 1994 08:49:37 gmt",
            "Sun, 6 Nov 1994 08:49:37 UTC",
            "Sun, 06-Nov-1994 08:49:37 GMT",
            "  Sun,  06 Nov 1994   08:49:37 GMT  ",
        ])
    func threeForms(_ text: String) {
        #expect(HTTPDate.parse(text) == example)
    }

    @Test("dates across the calendar: leap days, the ends of months, years far apart")
    func calendar() {
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Mon, 01 Jan 1900 00:00:00 GMT") == Date(timeIntervalSince1970: -2_208_988_800))
        // Checked against Foundation's calendar for every day of four years, leap year included.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let names = ["", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var day = calendar.date(from: DateComponents(year: 2023, month: 1, day: 1, hour: 7, minute: 5, second: 9))!
        for _ in 0..<(4 * 366) {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let text = "Mon, \(parts.day!) \(names[parts.month!]) \(parts.year!) 07:05:09 GMT"
            #expect(HTTPDate.parse(text) == day, "\(text)")
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
    }

    @Test(
        "text that is no HTTP date is nil",
        arguments: [
            "", "Sun", "Sun,", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 1994 08:49:37 GMT trailing", "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 199 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
            "Someday, 06 Nov 1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "120", "-1",
            // The fuzzer's find: characters outside ASCII inside a date stopped the process.
            "Sun, 25 Nov \u{07EC}\u{FFFD}n, 06 Nov 1994\"08:50:37 GMT", "Sun, 06 Nov 1994 08:49:37 G\u{00D0}T",
            "Sun, \u{0661}\u{0666} Nov 1994 08:49:37 GMT",
        ])
    func notADate(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("a leap second reads as the second before it, as POSIX time has no room for it")
    func leapSecond() {
        #expect(
            HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == HTTPDate.parse("Sat, 31 Dec 2016 23:59:59 GMT"))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:60 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test("a two-digit year is the one with those digits not more than 50 years ahead")
    func twoDigitYears() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // in 2026
        #expect(HTTPDate.fullYear(twoDigits: 26, now: now) == 2026)
        #expect(HTTPDate.fullYear(twoDigits: 76, now: now) == 2076)
        #expect(HTTPDate.fullYear(twoDigits: 77, now: now) == 1977)
        #expect(HTTPDate.fullYear(twoDigits: 94, now: now) == 1994)
        #expect(HTTPDate.fullYear(twoDigits: 0, now: now) == 2000)
    }
}
