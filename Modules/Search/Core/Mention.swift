import Foundation
import Kernel

/// A message that mentions the reader (`@Name`), as it is now, with the cursor a later list
/// resumes after.
public struct Mention: Codable, Equatable, Sendable, Identifiable {
    public let id: MessageID
    public let conversationID: ConversationID
    public let senderID: UserID
    public let sentAt: Date
    /// Its text as it is now.
    public let text: String
    /// Where it is in the store's order: `since` this, a list gives the mentions after it.
    public let cursor: Int64

    /// The mention `message` is.
    public init(_ message: SearchCorpusMessage) {
        id = message.id
        conversationID = message.conversationID
        senderID = message.senderID
        sentAt = message.sentAt
        text = message.text
        cursor = message.key
    }
}

/// A page of mentions, newest last, and where the next list resumes.
public struct MentionPage: Codable, Equatable, Sendable {
    public let mentions: [Mention]
    /// The cursor to ask `since` next: the last mention's, or the one asked when none came (0
    /// when there are none at all).
    public let next: Int64
    /// Whether newer mentions than these already wait (ask again `since` `next`).
    public let hasMore: Bool

    /// A page of `mentions` that resumes at `next`; `hasMore` when newer ones already wait.
    public init(mentions: [Mention], next: Int64, hasMore: Bool) {
        self.mentions = mentions
        self.next = next
        self.hasMore = hasMore
    }

    /// What a store reads for a page: without `since` the newest `limit`, newest first; after it
    /// the oldest `limit + 1` (one more tells whether more wait).
    public static func reading(since: Int64?, limit: Int) -> (newestFirst: Bool, count: Int) {
        since == nil ? (true, limit) : (false, limit + 1)
    }

    /// The page of `found`, the mentions a store read for it (`reading(since:limit:)`), in any
    /// order: after `since`, the first `limit`; without it, the newest `limit`; newest last.
    public init(_ found: [Mention], since: Int64?, limit: Int) {
        let found = found.sorted { $0.cursor < $1.cursor }
        let page = since == nil ? Array(found.suffix(limit)) : Array(found.prefix(limit))
        self.init(mentions: page, next: page.last?.cursor ?? since ?? 0, hasMore: since != nil && found.count > limit)
    }
}
