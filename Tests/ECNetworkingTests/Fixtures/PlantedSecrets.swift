import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets planted in every part of a request and its answer; none may show up in anything the
/// library writes or describes.
enum Planted {
    static let authorization = "PLANTED-SECRET-1"
    static let apiKey = "PLANTED-KEY-2"
    static let userAddedHeader = "PLANTED-TENANT-2B"
    static let accessToken = "PLANTED-QUERY-3"
    /// After a `;`, which some servers still read as the query's separator.
    static let semicolonToken = "PLANTED-QUERY-3B"
    static let amazonSignature = "PLANTED-AMZ-4"
    static let amazonCredential = "PLANTED-AMZ-4B"
    static let amazonSecurityToken = "PLANTED-AMZ-4C"
    static let shortSignature = "PLANTED-SIG-4D"
    static let signature = "PLANTED-SIG-4E"
    static let userinfo = "PLANTED-USERINFO-5"
    static let newPassword = "PLANTED-BODY-6"
    static let currentPassword = "PLANTED-BODY-7"
    static let password = "PLANTED-BODY-8"
    static let passwordConfirmation = "PLANTED-BODY-8B"
    static let nestedSecret = "PLANTED-BODY-8C"
    static let refreshTokenInArray = "PLANTED-BODY-8D"
    /// Under a key written with an escape, `secre\u0074`, which a parser reads as `secret`.
    static let escapedKeySecret = "PLANTED-BODY-8E"
    static let responseToken = "PLANTED-RESPONSE-9"
    static let responseRefreshToken = "PLANTED-RESPONSE-10"
    static let responseCookie = "PLANTED-COOKIE-11"

    /// Every planted secret.
    static let all = [
        authorization, apiKey, userAddedHeader, accessToken, semicolonToken, amazonSignature, amazonCredential,
        amazonSecurityToken, shortSignature, signature, userinfo, newPassword, currentPassword, password,
        passwordConfirmation, nestedSecret, refreshTokenInArray, escapedKeySecret, responseToken,
        responseRefreshToken, responseCookie,
    ]

    /// The secrets the default sensitive names cover: all but the header the user adds to
    /// ``NetworkConfiguration/sensitiveData``, which descriptions (having no configuration) show.
    static let coveredByDefaults = all.filter { $0 != userAddedHeader }

    static let url = URL(
        string: "https://ada:\(userinfo)@api.example.com/v1/login?access_token=\(accessToken)"
            + "&X-Amz-Signature=\(amazonSignature)&X-Amz-Credential=\(amazonCredential)"
            + "&X-Amz-Security-Token=\(amazonSecurityToken)&sig=\(shortSignature)&signature=\(signature)&page=2"
            + ";access_token=\(semicolonToken)")!

    static let body = """
        {"currentPassword":"\(currentPassword)","newPassword":"\(newPassword)","password":"\(password)",\
        "passwordConfirmation":"\(passwordConfirmation)","profile":{"clientSecret":"\(nestedSecret)","name":"ada"},\
        "devices":[{"refresh_token":"\(refreshTokenInArray)","model":"phone"}],\
        "secre\\u0074":"\(escapedKeySecret)"}
        """

    static let responseBody = """
        {"error":"expired","access_token":"\(responseToken)","refresh_token":"\(responseRefreshToken)"}
        """

    static var request: NetworkRequest {
        NetworkRequest(
            headers: [
                "Authorization": "Bearer \(authorization)", "X-Api-Key": apiKey, "X-Tenant-Handle": userAddedHeader,
                "X-Trace": "trace-1",
            ],
            method: .post,
            url: url,
            body: .data(Data(body.utf8), contentType: "application/json"))
    }

    /// A 401 answer to ``request`` with secrets in its body, its cookie and its URL, as the
    /// pipeline builds it (the `HTTPURLResponse` included).
    static var response: NetworkResponse {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Set-Cookie": "id=\(responseCookie)"]
        return NetworkResponse(
            statusCode: 401,
            headers: headers,
            body: Data(responseBody.utf8),
            url: url,
            httpURLResponse: HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: headers.dictionary),
            request: request)
    }
}
