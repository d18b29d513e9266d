import Foundation
import Testing

@testable import ECNetworking

@Suite("SensitiveData: which names are secret")
struct SensitiveDataTests {
    private let defaults = SensitiveData.default

    @Test(
        "body fields that merely contain a sensitive name are sensitive, whatever their case or separators",
        arguments: [
            "password", "newPassword", "currentPassword", "passwordConfirmation", "password_confirmation",
            "NEW-PASSWORD", "user[password]", "passwd", "token", "access_token", "refreshToken", "id_token",
            "secret", "clientSecret", "client_secret", "apiKey", "api_key", "API-KEY", "privateKey",
            "credentials",
        ])
    func sensitiveBodyFields(name: String) {
        #expect(defaults.isSensitiveBodyField(name))
    }

    @Test(
        "ordinary body fields are not", arguments: ["username", "name", "email", "id", "keyboard", "description"])
    func ordinaryBodyFields(name: String) {
        #expect(!defaults.isSensitiveBodyField(name))
    }

    @Test(
        "pre-signed URL credentials and common token parameters are sensitive query parameters",
        arguments: [
            "X-Amz-Signature", "x-amz-credential", "X-Amz-Security-Token", "sig", "SIG", "signature",
            "X-Goog-Signature", "access_token", "ACCESS%5FTOKEN", "api_key", "key", "auth", "client_secret",
        ])
    func sensitiveQueryParameters(name: String) {
        #expect(defaults.isSensitiveQueryParameter(name.removingPercentEncoding ?? name))
    }

    @Test(
        "short listed names must match whole, so ordinary parameters stay visible",
        arguments: ["signup", "design", "assign", "keyword", "monkey", "author", "page", "q", "X-Amz-Date"])
    func ordinaryQueryParameters(name: String) {
        #expect(!defaults.isSensitiveQueryParameter(name))
    }

    @Test(
        "credential headers are sensitive, ordinary ones are not",
        arguments: [
            ("Authorization", true), ("proxy-authorization", true), ("Cookie", true), ("set-cookie", true),
            ("X-Api-Key", true), ("X-Auth-Token", true), ("X-CSRF-Token", true), ("X-Amz-Security-Token", true),
            ("Accept", false), ("Content-Type", false), ("X-Trace", false), ("ETag", false),
        ])
    func headers(name: String, isSensitive: Bool) {
        #expect(defaults.isSensitiveHeader(name) == isSensitive)
    }

    @Test("a name the user adds counts at once, and a name the user removes no longer does")
    func userChanges() {
        var data = SensitiveData.default
        data.headers.insert("X-Tenant-Handle")
        data.bodyFields.insert("pin")
        data.queryParameters.remove("key")

        #expect(data.isSensitiveHeader("x-tenant-handle"))
        #expect(data.isSensitiveBodyField("PIN"))
        #expect(!data.isSensitiveBodyField("spinner"))
        #expect(!data.isSensitiveQueryParameter("key"))
        #expect(!SensitiveData.default.isSensitiveHeader("X-Tenant-Handle"))
    }

    @Test("a request carries credentials through a sensitive header, URL userinfo or a sensitive query item")
    func carriesCredentials() {
        let url = URL(string: "https://api.example.com/v1/items?page=2")!
        #expect(!defaults.carriesCredentials(NetworkRequest(headers: ["Accept": "*/*"], url: url)))
        #expect(defaults.carriesCredentials(NetworkRequest(headers: ["authorization": "Bearer t"], url: url)))
        #expect(defaults.carriesCredentials(NetworkRequest(url: URL(string: "https://ada:pw@api.example.com/")!)))
        #expect(defaults.carriesCredentials(NetworkRequest(url: URL(string: "https://api.example.com/?sig=s")!)))
        #expect(
            defaults.carriesCredentials(
                NetworkRequest(url: url, queryItems: [URLQueryItem(name: "access_token", value: "t")])))
    }
}

@Suite("Redaction: what secrets become")
struct RedactionTests {
    private let redaction = Redaction(.default)

    @Test("URLs lose their userinfo and the values of sensitive query and fragment parameters, nothing else")
    func urls() {
        let url = URL(
            string: "https://ada:pw@api.example.com:8443/v1/files?X-Amz-Signature=s&page=2&sig=t#access_token=u&x=1")!

        #expect(
            redaction.url(url)
                == "https://<redacted>@api.example.com:8443/v1/files?X-Amz-Signature=<redacted>&page=2"
                + "&sig=<redacted>#access_token=<redacted>&x=1")
        #expect(redaction.url(URL(string: "https://api.example.com/a?b=c")!) == "https://api.example.com/a?b=c")
        #expect(redaction.url(URL(string: "https://api.example.com/a@b")!) == "https://api.example.com/a@b")
    }

    @Test("URL text is redacted alike whatever it holds: encoded names, fragments, other text, an @ past the host")
    func urlTextCases() {
        let cases = [
            "https://api.example.com/a?acc%65ss_token=t&page=2":
                "https://api.example.com/a?acc%65ss_token=<redacted>&page=2",
            "https://api.example.com/a#sig=x&y=1": "https://api.example.com/a#sig=<redacted>&y=1",
            "https://api.example.com/é?token=t": "https://api.example.com/é?token=<redacted>",
            "https://ada@api.example.com": "https://<redacted>@api.example.com",
            "https://api.example.com/a?next=https://u:p@b.example/&page=1":
                "https://api.example.com/a?next=https://u:p@b.example/&page=1",
            "/relative?PAGE=2&Sig=s": "/relative?PAGE=2&Sig=<redacted>",
            "https://api.example.com/a?=x&&token": "https://api.example.com/a?=x&&token",
            // `;` separates pairs for the servers that still read it so.
            "https://api.example.com/a?a=1;access_token=t&b=2":
                "https://api.example.com/a?a=1;access_token=<redacted>&b=2",
            "https://api.example.com/a#x=1;sig=s": "https://api.example.com/a#x=1;sig=<redacted>",
            "https://api.example.com/a;p?b=1": "https://api.example.com/a;p?b=1",
        ]
        for (text, expected) in cases {
            #expect(redaction.urlText(text) == expected)
        }
    }

    @Test("a URL in any header's value loses its userinfo and sensitive parameters; other words are left alone")
    func urlsInHeaderValues() {
        let cases: [(name: String, value: String, shown: String)] = [
            // A 3xx to a pre-signed download, relative or absolute.
            (
                "Location", "https://bucket.example.com/r.pdf?X-Amz-Signature=s1&X-Amz-Credential=c1&v=2",
                "https://bucket.example.com/r.pdf?X-Amz-Signature=<redacted>&X-Amz-Credential=<redacted>&v=2"
            ),
            ("Content-Location", "/callback?state=1&access_token=t1", "/callback?state=1&access_token=<redacted>"),
            // Each URL of a list alone: the first one's query must not swallow the rest of the value.
            (
                "Link",
                #"<https://a.example/p?page=2&sig=s2>; rel="next", <https://u:p2@b.example/p?page=1>; rel="prev""#,
                #"<https://a.example/p?page=2&sig=<redacted>>; rel="next", <https://<redacted>@b.example/p?page=1>; rel="prev""#
            ),
            ("Refresh", "0; url=https://a.example/x?token=t3", "0; url=https://a.example/x?token=<redacted>"),
            // A comma inside a query does not end the URL.
            ("Referer", "https://a.example/p?ids=1,2&key=k4", "https://a.example/p?ids=1,2&key=<redacted>"),
            // An address after a URL is not the URL's userinfo; an ETag's `#` is no fragment.
            (
                "User-Agent", "App/1.0 (+https://app.example; ops@app.example)",
                "App/1.0 (+https://app.example; ops@app.example)"
            ),
            ("ETag", #"W/"abc#def=1""#, #"W/"abc#def=1""#),
            ("Content-Type", "application/json; charset=utf-8", "application/json; charset=utf-8"),
            // A sensitive header is hidden whole, URL or not.
            ("Authorization", "Bearer https://a.example/?page=1", "<redacted>"),
        ]
        for (name, value, shown) in cases {
            #expect(redaction.headerValue(name: name, value: value) == shown, "\(name)")
        }
        let headers: HTTPHeaders = ["Location": "/next?access_token=t5", "X-Request-Id": "r1"]
        #expect(redaction.headers(headers)["Location"] == "/next?access_token=<redacted>")
        #expect(redaction.headers(headers)["X-Request-Id"] == "r1")
        #expect(!"\(headers)".contains("t5"))
    }

    @Test("an error handed on keeps its case; the responses and failing URLs it wraps, at any depth, are redacted")
    func errors() throws {
        let request = NetworkRequest(
            headers: ["Authorization": "Bearer a1"], url: URL(string: "https://api.example.com/x?access_token=q1")!)
        let response = NetworkResponse(
            statusCode: 401, headers: ["Set-Cookie": "sid=c1", "Content-Type": "application/json"],
            body: Data(#"{"token":"b1"}"#.utf8), url: request.url, request: request)
        let failing = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url])
        let error = NetworkError.retriesExhausted(
            attempts: 2,
            lastError: NetworkError.bodyNotReplayable(
                response: response, lastError: NetworkError.transport(failing)))

        guard case .retriesExhausted(2, let last as NetworkError) = redaction.error(error) as? NetworkError,
            case .bodyNotReplayable(let shown?, let inner as NetworkError) = last,
            case .transport(let shownFailing) = inner
        else {
            Issue.record("the cases changed: \(redaction.error(error))")
            return
        }
        var fields = shown.headers.fields.map(\.value) + [shown.url?.absoluteString ?? ""]
        fields += shown.request?.headers.fields.map(\.value) ?? []
        fields += [shown.request?.url.absoluteString ?? "", String(decoding: shown.body, as: UTF8.self)]
        fields.append(shownFailing.failingURL?.absoluteString ?? "")
        for secret in ["a1", "q1", "c1", "b1"] {
            #expect(!fields.contains { $0.contains(secret) }, "\(secret) in \(fields)")
        }
        #expect(shown.statusCode == 401 && shownFailing.code == .timedOut)
        #expect(shownFailing.failingURL?.host == "api.example.com")
        // Any other error is handed on as it is.
        #expect(redaction.error(CocoaError(.fileNoSuchFile)) is CocoaError)
    }

    @Test("form and JSON bodies are found by their content type in any case")
    func contentTypeCase() {
        let form = redaction.body(Data("password=p1&x=1".utf8), contentType: "APPLICATION/X-WWW-FORM-URLENCODED")
        #expect(String(decoding: form, as: UTF8.self) == "password=<redacted>&x=1")
        let json = redaction.body(Data(#" "a" , "token": "t1""#.utf8), contentType: "Application/JSON; charset=utf-8")
        #expect(String(decoding: json, as: UTF8.self) == #" "a" , "token": "<redacted>""#)
        let text = redaction.body(Data(#" "token": "t1""#.utf8), contentType: "text/plain")
        #expect(String(decoding: text, as: UTF8.self) == #" "token": "t1""#)
    }

    @Test("JSON bodies keep their layout and order; sensitive values go, nested and in arrays included")
    func json() {
        let body = """
            {"user": {"name": "ada", "newPassword": "p1", "tokens": ["a", "b"]},
             "items": [{"secret": {"deep": 1}}, {"id": 2}], "count": 3, "apiKey": null}
            """
        let redacted = String(decoding: redaction.body(Data(body.utf8), contentType: "application/json"), as: UTF8.self)

        #expect(
            redacted == """
                {"user": {"name": "ada", "newPassword": "<redacted>", "tokens": "<redacted>"},
                 "items": [{"secret": "<redacted>"}, {"id": 2}], "count": 3, "apiKey": "<redacted>"}
                """)
    }

    @Test("a JSON body cut short, or invalid, still loses its sensitive values")
    func truncatedJSON() {
        for body in [#"{"name":"ada","password":"p1"#, #"{"password":"p1","x":"#, #"{"a":1} {"token":"t1"}"#] {
            let redacted = String(decoding: redaction.body(Data(body.utf8), contentType: nil), as: UTF8.self)
            #expect(!redacted.contains("p1") && !redacted.contains("t1"), "\(body) became \(redacted)")
        }
    }

    // A parser decodes a key's escapes, so the server reads `password` however it is written.
    @Test(
        "a JSON key written with escapes is judged as a parser reads it",
        arguments: [#"pass\u0077ord"#, #"\u0070assword"#, #"to\u006Ben"#, #"api\u004Bey"#, #"na\u006De"#])
    func escapedKeys(key: String) {
        let body = #"{"id":1,"\#(key)":"S3CRET","after":"kept"}"#
        let redacted = String(decoding: redaction.body(Data(body.utf8), contentType: nil), as: UTF8.self)
        // `na\u006De` is the key `name`, no secret's name: its value stays.
        let isSensitive = !key.hasPrefix("na")

        #expect(redacted.contains("S3CRET") != isSensitive, "\(body) became \(redacted)")
        #expect(redacted.contains(#""after":"kept""#))
    }

    @Test("a form body's pairs after a `;` lose their sensitive values too")
    func formSemicolon() {
        let form = redaction.body(Data("x=1;password=p1&y=2".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(String(decoding: form, as: UTF8.self) == "x=1;password=<redacted>&y=2")
    }

    @Test("escaped quotes inside values do not confuse the scanner")
    func escapedQuotes() {
        let body = #"{"note":"say \"password\": \"no\"","password":"p\"1","after":"kept"}"#
        let redacted = String(decoding: redaction.body(Data(body.utf8), contentType: nil), as: UTF8.self)

        #expect(redacted == #"{"note":"say \"password\": \"no\"","password":"<redacted>","after":"kept"}"#)
    }
}
