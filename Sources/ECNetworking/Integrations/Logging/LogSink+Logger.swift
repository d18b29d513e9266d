#if Logging
    import Logging

    extension LogSink {
        /// A sink that hands each entry to `logger` as a structured record: the entry's first line
        /// as the message, its level mapped to swift-log's, and its fields (``NetworkLogEvent/metadata``)
        /// as metadata, with the header, body and cURL lines under `details`. Everything is redacted
        /// before it gets here, as for every sink; the logger's own level and handler decide what
        /// is kept. Needs the `Logging` trait.
        ///
        /// ```swift
        /// configuration.logSink = .logger(Logger(label: "api"))
        /// ```
        ///
        /// An entry below the logger's level is not built at all: the level is read from the
        /// logger's handler for each entry, so a level changed later takes effect.
        public static func logger(_ logger: Logger) -> LogSink {
            .events(admitting: { logger.logLevel <= $0.loggerLevel }) { event in
                var metadata: Logger.Metadata = [:]
                for field in event.metadata {
                    metadata[field.key] = .string(field.value)
                }
                if !event.details.isEmpty {
                    metadata["details"] = .array(event.details.map { .string($0) })
                }
                logger.log(level: event.level.loggerLevel, "\(event.message)", metadata: metadata)
            }
        }
    }

    extension NetworkLogEvent.Level {
        /// The swift-log level of the same name.
        var loggerLevel: Logger.Level {
            switch self {
            case .debug: .debug
            case .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error: .error
            }
        }
    }
#endif
