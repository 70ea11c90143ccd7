import Logging
import Synchronization

/// What a logger logs, kept as text: a line each, its level, its message and its metadata
/// (`key=value`, by key), for tests that read what a server or a store logged.
public final class LogCapture: Sendable {
    private let kept = Mutex<[String]>([])

    public init() {}

    /// Every line logged so far.
    public var lines: [String] { kept.withLock { $0 } }
    /// Every line logged so far, joined by line breaks.
    public var text: String { lines.joined(separator: "\n") }

    /// A log handler writing into a capture.
    public struct Handler: LogHandler {
        let capture: LogCapture
        public var metadata: Logger.Metadata = [:]
        public var logLevel: Logger.Level = .trace

        public init(capture: LogCapture) { self.capture = capture }

        public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        public func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            capture.kept.withLock { $0.append((["\(event.level)", "\(event.message)"] + all).joined(separator: " ")) }
        }
    }
}
