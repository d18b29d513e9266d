#if AsyncHTTPClient
    import NIOCore

    extension TimeAmount {
        /// `duration` in NIO's nanoseconds, saturating rather than trapping for durations past
        /// about 292 years, which mean "no limit" in practice.
        init(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            let (wholeNanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            if overflow {
                self = .nanoseconds(seconds < 0 ? .min : .max)
            } else {
                let (total, sumOverflow) = wholeNanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
                self = .nanoseconds(sumOverflow ? (seconds < 0 ? .min : .max) : total)
            }
        }
    }
#endif

#if AsyncHTTPClient
    extension NIODeadline {
        /// The moment `duration` from now; `nil` (no deadline) stays far in the future rather than
        /// overflow NIO's clock.
        static func after(_ duration: Duration?) -> NIODeadline {
            guard let duration, duration < .seconds(100 * 365 * 86_400) else { return .distantFuture }
            return .now() + TimeAmount(max(duration, .zero))
        }
    }
#endif
