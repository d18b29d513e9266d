import Dispatch
import Foundation

/// Waits for SIGINT (Ctrl-C) or SIGTERM, so that `--serve` can stop its server cleanly instead
/// of being killed mid-request.
enum TerminationSignal {
    /// Returns the first of SIGINT or SIGTERM to arrive, or `nil` when the waiting task is cancelled.
    static func next() async -> Int32? {
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM].map { number in
            // The default action would end the process at once; ignoring it lets the source see it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            continuation.finish()
        }
        for await number in signals {
            return number
        }
        return nil
    }

    /// The signal's conventional name, for the message on the way out.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
