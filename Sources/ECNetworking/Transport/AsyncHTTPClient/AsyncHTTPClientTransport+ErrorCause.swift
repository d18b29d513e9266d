#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// What async-http-client or SwiftNIO threw, by its type and case, such as
        /// `NIOSSLExtraError.failedToValidateHostname` or
        /// `NIOSSLError.handshakeFailed(sslError: CERTIFICATE_VERIFY_FAILED)`: enough to tell an
        /// untrusted certificate from a hostname mismatch, and never a value the error carries (a
        /// URL, a header, a host name), which the original's description may hold.
        static func cause(of error: any Error) -> String {
            switch error {
            case let error as HTTPClientError:
                return "HTTPClientError(\(error.shortDescription))"
            case let error as NIOSSLExtraError:
                // Its description names the expected host after a colon; the part before is the case.
                return String(error.description.prefix { $0 != ":" })
            case let error as NIOSSLError:
                if case .handshakeFailed(let underlying) = error {
                    return "NIOSSLError.handshakeFailed(\(cause(of: underlying)))"
                }
                return typeAndCase(of: error)
            case let error as BoringSSLError:
                switch error {
                case .sslError(let stack), .unknownError(let stack), .invalidSNIName(let stack),
                    .failedToSetALPN(let stack):
                    let label = Mirror(reflecting: error).children.first?.label ?? "sslError"
                    let reasons = stack.map { reason(of: $0) }.filter { !$0.isEmpty }
                    return reasons.isEmpty ? label : "\(label): \(reasons.joined(separator: ", "))"
                default:
                    return typeAndCase(of: error)
                }
            case let error as IOError:
                return "IOError(errno \(error.errnoCode))"
            default:
                return typeAndCase(of: error)
            }
        }

        /// BoringSSL's reason for one error of its stack, such as `CERTIFICATE_VERIFY_FAILED`: the
        /// last field of its error string (`error:1000007d:SSL routines:OPENSSL_internal:REASON`),
        /// without the source location NIOSSL appends.
        private static func reason(of error: BoringSSLInternalError) -> String {
            let text = error.description
            let withoutLocation = text.range(of: " at ").map { text[..<$0.lowerBound] } ?? Substring(text)
            guard let lastColon = withoutLocation.lastIndex(of: ":") else { return "" }
            let reason = withoutLocation[withoutLocation.index(after: lastColon)...]
            // Only a reason code's characters: anything else is not one of BoringSSL's names.
            guard reason.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else { return "" }
            return String(reason)
        }

        /// The error's type, and its case when it is an enum: the case's label when it carries a
        /// value (never the value); when it carries none, its name or its description, which then
        /// can depend on nothing but the case (cut at 80 characters).
        private static func typeAndCase(of error: any Error) -> String {
            let type = String(describing: Swift.type(of: error))
            let mirror = Mirror(reflecting: error)
            guard mirror.displayStyle == .enum else { return type }
            if let label = mirror.children.first?.label { return "\(type).\(label)" }
            return "\(type).\(String(describing: error).prefix(80))"
        }
    }
#endif
