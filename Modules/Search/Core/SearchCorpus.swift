import Foundation
import Kernel

/// What Search reads of messages where it keeps no index of its own (the memory backend), through
/// the caller's own services: the conversations they read and those conversations' messages as
/// they are now. Connected to Chat and the conversation list by the composition root; Search
/// imports neither.
public protocol SearchCorpus: Sendable {
    /// The conversations the caller reads.
    func conversations() async throws -> [ConversationID]

    /// The messages of `conversations` (each one the caller reads) as they are now (edited text;
    /// deleted ones left out), oldest first, in the store's order.
    func messages(in conversations: [ConversationID]) async throws -> [SearchCorpusMessage]
}

/// A message as Search sees it.
public struct SearchCorpusMessage: Sendable, Equatable {
    public let id: MessageID
    public let conversationID: ConversationID
    public let senderID: UserID
    public let sentAt: Date
    public let text: String
    /// Its place in the store's order (where a list of mentions resumes, and a page of hits).
    public let key: Int64
    /// Whom it mentions.
    public let mentions: [UserID]
    /// The names of the files it carries: found by a search as its words are.
    public let fileNames: [String]

    public init(
        id: MessageID, conversationID: ConversationID, senderID: UserID, sentAt: Date, text: String, key: Int64 = 0, mentions: [UserID] = [],
        fileNames: [String] = []
    ) {
        self.id = id
        self.conversationID = conversationID
        self.senderID = senderID
        self.sentAt = sentAt
        self.text = text
        self.key = key
        self.mentions = mentions
        self.fileNames = fileNames
    }

    /// A message as a store's row gives it: its time in whole milliseconds since 1970.
    public init(
        key: Int64, id: String, conversationID: String, senderID: String, sentAtMilliseconds: Int64, text: String, fileNames: [String] = []
    ) {
        self.init(
            id: MessageID(id), conversationID: ConversationID(conversationID), senderID: UserID(senderID),
            sentAt: WireFormat.date(milliseconds: sentAtMilliseconds), text: text, key: key, fileNames: fileNames)
    }

    /// What a search finds it by: its text, then a line per file it carries (a hit on a file's
    /// name shows that line).
    public var searchable: String { SearchQuery.searchable(text: text, fileNames: fileNames) }
}
