import Chat
import Kernel
import SQLStore

/// Typing notices between the processes that share a SQLite file, through its `SignalFolder`
/// and never through the database: a typist's signal `<conversation>+<user>` is raised while
/// they type (again at each notice) and lowered when they stop.
public struct SQLTypingChannel: TypingChannel {
    private let folder: SignalFolder

    /// The channel of the database whose signals are in `folder`.
    public init(folder: SignalFolder) { self.folder = folder }

    public func send(_ notice: TypingNotice) async throws {
        let name = notice.conversationID.rawValue + "+" + notice.userID.rawValue
        if notice.typing { try folder.raise(name) } else { folder.lower(name) }
    }

    public func notices() async -> AsyncStream<TypingNotice> {
        folder.signals().compactMapped { signal in
            let parts = signal.name.split(separator: "+", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return TypingNotice(conversation: String(parts[0]), user: String(parts[1]), typing: signal.raised)
        }
    }
}
