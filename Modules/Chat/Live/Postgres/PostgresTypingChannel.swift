import Chat
import Foundation
import Kernel
import PostgresStore

/// Typing notices between a deployment's instances, through PostgreSQL's NOTIFY on
/// `messageai_typing` and never through a table: each notice is its JSON encoding.
public struct PostgresTypingChannel: TypingChannel {
    static let channel = "messageai_typing"
    private let database: PGDatabase

    /// The channel of `database`'s instances.
    public init(database: PGDatabase) { self.database = database }

    public func send(_ notice: TypingNotice) async throws {
        try await database.signal(String(decoding: try WireFormat.encoder().encode(notice), as: UTF8.self), on: Self.channel)
    }

    public func notices() async -> AsyncStream<TypingNotice> {
        await database.signals(on: Self.channel).compactMapped { payload in
            // Any instance's, or anyone's with the database's password: checked as any input is.
            guard payload.utf8.count <= 512, let notice = try? WireFormat.decoder().decode(TypingNotice.self, from: Data(payload.utf8)) else {
                return nil
            }
            return TypingNotice(conversation: notice.conversationID.rawValue, user: notice.userID.rawValue, typing: notice.typing)
        }
    }
}
