#if Tracing
    import ECNetworking
    import Foundation
    import TestSupport
    import Tracing

    /// An in-memory tracer for the tests: it records every span it starts, with its trace, span
    /// and parent ids and how many times it was ended, and injects W3C `traceparent` headers as
    /// an OpenTelemetry tracer does. swift-distributed-tracing's `InMemoryTracer` ignores a second
    /// `end()` and injects headers of its own, so it can show neither a double end nor the header.
    final class RecordingTracer: Tracer {
        let spans = Log<RecordedSpan>()

        func startSpan<Instant: TracerInstant>(
            _ operationName: String,
            context: @autoclosure () -> ServiceContext,
            ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant,
            function: String,
            file fileID: String,
            line: UInt
        ) -> RecordedSpan {
            let parent = context().recordedSpanIdentity
            let identity = RecordedSpanIdentity(
                traceID: parent?.traceID ?? Self.hexIdentifier(bytes: 16), spanID: Self.hexIdentifier(bytes: 8))
            let span = RecordedSpan(
                operationName: operationName, kind: kind, identity: identity, parentSpanID: parent?.spanID)
            spans.append(span)
            return span
        }

        func activeSpan(identifiedBy context: ServiceContext) -> RecordedSpan? { nil }

        func forceFlush() {}

        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
        ) where Inject.Carrier == Carrier {
            guard let identity = context.recordedSpanIdentity else { return }
            injector.inject(identity.traceparent, forKey: "traceparent", into: &carrier)
        }

        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
        ) where Extract.Carrier == Carrier {}

        private static func hexIdentifier(bytes: Int) -> String {
            (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        }
    }

    /// A span's ids, kept in its context so that children and injection find them.
    struct RecordedSpanIdentity: Sendable, Equatable {
        let traceID: String
        let spanID: String

        /// The W3C trace context header value for this span.
        var traceparent: String { "00-\(traceID)-\(spanID)-01" }
    }

    private enum RecordedSpanIdentityKey: ServiceContextKey {
        typealias Value = RecordedSpanIdentity
    }

    extension ServiceContext {
        var recordedSpanIdentity: RecordedSpanIdentity? {
            get { self[RecordedSpanIdentityKey.self] }
            set { self[RecordedSpanIdentityKey.self] = newValue }
        }
    }

    /// A span as ``RecordingTracer`` records it; its state is kept under a lock.
    final class RecordedSpan: Span {
        struct State: Sendable {
            var operationName: String
            var attributes = SpanAttributes()
            var status: SpanStatus?
            var errors: [String] = []
            var endCount = 0
        }

        let kind: SpanKind
        let identity: RecordedSpanIdentity
        let parentSpanID: String?
        let context: ServiceContext
        private let state: LockedState<State>

        init(operationName: String, kind: SpanKind, identity: RecordedSpanIdentity, parentSpanID: String?) {
            self.kind = kind
            self.identity = identity
            self.parentSpanID = parentSpanID
            var context = ServiceContext.topLevel
            context.recordedSpanIdentity = identity
            self.context = context
            self.state = LockedState(State(operationName: operationName))
        }

        var operationName: String {
            get { state.withLock { $0.operationName } }
            set { state.withLock { $0.operationName = newValue } }
        }

        var attributes: SpanAttributes {
            get { state.withLock { $0.attributes } }
            set { state.withLock { $0.attributes = newValue } }
        }

        var isRecording: Bool { state.withLock { $0.endCount == 0 } }
        var status: SpanStatus? { state.withLock { $0.status } }
        var errors: [String] { state.withLock { $0.errors } }
        var endCount: Int { state.withLock { $0.endCount } }

        func setStatus(_ status: SpanStatus) {
            state.withLock { $0.status = status }
        }

        func addEvent(_ event: SpanEvent) {}

        func recordError<Instant: TracerInstant>(
            _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
        ) {
            state.withLock { $0.errors.append(String(describing: error)) }
        }

        func addLink(_ link: SpanLink) {}

        func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
            state.withLock { $0.endCount += 1 }
        }

        /// A string attribute's value.
        func string(_ name: String) -> String? {
            guard case .string(let value)? = attributes[name]?.toSpanAttribute() else { return nil }
            return value
        }

        /// An integer attribute's value.
        func int(_ name: String) -> Int? {
            switch attributes[name]?.toSpanAttribute() {
            case .int64(let value)?: Int(value)
            case .int32(let value)?: Int(value)
            default: nil
            }
        }
    }
#endif
