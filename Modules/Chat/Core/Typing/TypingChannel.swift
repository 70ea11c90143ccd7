import Kernel

/// How typing notices travel between the processes of one store, without being stored: within
/// the process on the memory backend (`LocalTypingChannel`), through a folder of short-lived
/// files on SQLite, and through PostgreSQL's NOTIFY between a deployment's instances. A process
/// that is not listening when a notice is sent never gets it, which is all typing needs.
public protocol TypingChannel: Sendable {
    /// Sends `notice` to every process listening, this one included.
    func send(_ notice: TypingNotice) async throws
    /// The notices sent by any process from now on, each once, until the stream is dropped;
    /// returns once listening, so that a notice sent after it returns is heard.
    func notices() async -> AsyncStream<TypingNotice>
}

/// A `TypingChannel` within one process: the memory backend's, and tests'.
public final class LocalTypingChannel: TypingChannel {
    private let broadcaster = Broadcaster<TypingNotice>(bufferSize: 256)

    /// A channel with no listeners yet.
    public init() {}

    public func send(_ notice: TypingNotice) async throws { broadcaster.send(notice) }

    public func notices() async -> AsyncStream<TypingNotice> { broadcaster.subscribe() }
}
